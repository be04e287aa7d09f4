/** `/skill:name` in the chat input: pi's expansion of the skill's instructions, and its errors. */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { InstructionLoader } from "../../../src/core/prompt/instruction-loader.js";
import { expandSkillCommand, parseSkillCommand, SkillCommandError } from "../../../src/core/prompt/skill-command.js";
import { tempDirPerTest } from "../../util/temp-dir.js";

function writeSkill(dir: string, name: string, description: string, body: string): string {
  const file = path.join(dir, name, "SKILL.md");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`);
  return file;
}

describe("/skill:name", () => {
  const tmp = tempDirPerTest();
  const setUp = (trusted = true) => {
    const ws = path.join(tmp.dir, "ws");
    const agentDir = path.join(tmp.dir, "agent");
    const pdf = writeSkill(
      path.join(agentDir, "skills"),
      "pdf-tools",
      "Work with PDFs",
      "# PDF tools\n\nRun `pdftotext`.",
    );
    const release = writeSkill(path.join(ws, ".pi", "skills"), "release", "Cut a release", "Tag, then publish.");
    const loader = new InstructionLoader({ workspaceFolders: [ws], agentDir, trusted });
    return { ws, pdf, release, loader };
  };

  it("parses the name and the request after it", () => {
    assert.deepEqual(parseSkillCommand("/skill:pdf-tools extract report.pdf"), {
      name: "pdf-tools",
      args: "extract report.pdf",
    });
    assert.deepEqual(parseSkillCommand("/skill:release"), { name: "release", args: "" });
    assert.equal(parseSkillCommand("/skill: x"), undefined);
    assert.equal(parseSkillCommand("please /skill:x"), undefined);
  });

  it("puts the skill's instructions into the message as pi does, the request after them", async () => {
    const { pdf, release, loader } = setUp();
    assert.equal(
      await expandSkillCommand("/skill:pdf-tools extract report.pdf", loader),
      `<skill name="pdf-tools" location="${pdf}">\nReferences are relative to ${path.dirname(pdf)}.\n\n` +
        "# PDF tools\n\nRun `pdftotext`.\n</skill>\n\nextract report.pdf",
    );
    // A project's skill; the file is read again, so an edit since the scan counts.
    fs.writeFileSync(release, "---\nname: release\ndescription: Cut a release\n---\nTag, test, then publish.\n");
    assert.equal(
      await expandSkillCommand("/skill:release", loader),
      `<skill name="release" location="${release}">\nReferences are relative to ${path.dirname(release)}.\n\n` +
        "Tag, test, then publish.\n</skill>",
    );
    assert.equal(await expandSkillCommand("no command here", loader), "no command here");
  });

  it("refuses a skill that is not listed (an untrusted workspace's) or is gone, naming what there is", async () => {
    const { release, loader } = setUp(false);
    await assert.rejects(
      expandSkillCommand("/skill:release now", loader),
      (e: unknown) =>
        e instanceof SkillCommandError && /No skill named "release": the skills are pdf-tools\./.test(e.message),
    );
    const trusted = setUp(true).loader;
    await trusted.load();
    fs.rmSync(release);
    await assert.rejects(expandSkillCommand("/skill:release", trusted), /The skill "release" is gone/);
  });
});
