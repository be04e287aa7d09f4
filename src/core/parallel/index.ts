/** Branches that run beside the user's: Explore in Parallel and Ask Aside (docs/parallel.md). */
export { askAside, readOnlyTools, ASIDE_TOOL_NAMES, type AskAsideOptions } from "./aside.js";
export {
  assertCopiesFit,
  BranchCopy,
  CopySizeCapError,
  folderBytes,
  listBranchCopies,
  removeOrphanCopies,
  type BranchCopyInfo,
  type CopyCheckpoint,
  type FileLineStat,
  type FoundCopy,
  type MaterializeOptions,
} from "./branch-copy.js";
export {
  appendBranchRunLine,
  branchRunDataOf,
  readBranchRuns,
  BRANCH_RUN_TYPE,
  type BranchRunData,
  type BranchRunKind,
  type BranchRunRecord,
  type BranchRunState,
} from "./branch-run-lines.js";
export {
  runBranch,
  BranchStop,
  DEFAULT_BRANCH_MAX_TURNS,
  type BranchEvent,
  type BranchOutcome,
  type BranchRunOptions,
} from "./branch-run.js";
export {
  exploreInParallel,
  startBranchGroup,
  branchSandboxPolicy,
  MAX_PARALLEL_BRANCHES,
  MIN_PARALLEL_BRANCHES,
  type BranchGroupOptions,
  type BranchSandbox,
  type BranchTools,
  type Exploration,
  type ExploreBranch,
  type ExploreIsolation,
  type ExploreOptions,
} from "./explore.js";
export { replayPlan, replayWithModels, ReplayPlanError, type ReplayOptions, type ReplayPlan } from "./replay.js";
export { CopiesMeter, guardCopiesCap, overCapMessage, CAP_POLL_MS, type CopiesSize } from "./copies-cap.js";
export {
  appendBranchCheck,
  branchCheckDataOf,
  branchCheckOf,
  checkHoverText,
  checkSummary,
  readBranchChecks,
  BRANCH_CHECK_TYPE,
  CHECK_HOVER_CHARS,
  rowCheckOf,
  type BranchCheckData,
  type BranchCheckRecord,
  type BranchCheckState,
} from "./branch-check.js";
export {
  runBranchCheck,
  defaultCheckCommand,
  liveCheckIds,
  CHECK_TAIL_BYTES,
  CHECK_TAIL_LINES,
  DEFAULT_CHECK_TIMEOUT_SECONDS,
  type BranchCheckOptions,
} from "./check-runner.js";
export { rankBranches, branchCost, type RankedBranch, type CostSource } from "./branch-ranking.js";
export { branchRunOf, newestEntryOf, type BranchSource } from "./branch-lookup.js";
export {
  asideToContinue,
  continueAside,
  settleContinuedAside,
  type AsideSource,
  type ContinuableAside,
  type ContinueAsideResult,
  type ContinueSession,
} from "./continue-aside.js";
