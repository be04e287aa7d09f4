/** Fixture files the test bundle carries as text (esbuild.mjs --tests loads `.jsonl` with its text loader). */
declare module "*.jsonl" {
  const text: string;
  export default text;
}
