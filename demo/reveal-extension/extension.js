// Opens the Agent view container once the window is up, so `npm start` lands on the demo session.
// (VS Code has no setting for "open this view on start"; a second development extension is the least
// intrusive way that needs no change to Agent Tree itself.)
/* global require, exports, console */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const vscode = require("vscode");

exports.activate = function activate() {
  void vscode.commands.executeCommand("workbench.view.extension.agentTree").then(undefined, (err) => {
    console.error("agent-tree-demo-reveal: could not open the Agent view:", err);
  });
};

exports.deactivate = function deactivate() {};
