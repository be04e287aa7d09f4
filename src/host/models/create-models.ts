/**
 * The models feature (docs/models.md) in two steps: the model library, which the session needs to be built, and
 * the picker, keys and logins, which act on the session once it is.
 */
import type * as vscode from "vscode";
import type { HostServices } from "../common/services.js";
import type { ModelFailure } from "../session/session-controller.js";
import { CredentialActions } from "./credential-actions.js";
import { ModelActions } from "./model-actions.js";
import { ModelService } from "./model-service.js";

/** The model library: it loads with the first session (or model command), not here (model-service.ts). */
export function createModelLibrary(s: HostServices): ModelService {
  const { context, log, cwd } = s;
  const service = new ModelService({ secrets: context.secrets, globalState: context.globalState, log, cwd });
  s.subscribe(service);
  s.onSettingChange(["models.custom"], () => service.reloadCustomModels());
  return service;
}

/**
 * The picker, thinking levels, keys and logins; the session's models follow the library and the settings. A model
 * call refused for its key (`onModelFailed`, kind "auth") offers to set the key or log in again.
 */
export function createModels(
  s: HostServices,
  library: ModelService,
  onModelFailed: vscode.Event<ModelFailure>,
): ModelActions {
  const controller = s.controller.get();
  const credentials = new CredentialActions(library, () => controller.models(), s.context.globalState, s.notify);
  s.subscribe(
    onModelFailed((failure) => {
      if (failure.errorKind === "auth") void credentials.offerAfterRefusal(failure.provider, failure.error);
    }),
  );
  const models = new ModelActions(controller, library, credentials, s.notify, (line) => s.log.info(line));
  s.subscribe(library.onDidChange(() => controller.refreshModels()));
  s.onSettingChange(["models", "model", "thinkingLevel", "compaction"], () => {
    models.invalidate();
    controller.refreshModels();
  });
  return models;
}
