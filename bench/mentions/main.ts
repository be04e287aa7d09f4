/** `node --import tsx bench/mentions/main.ts`: the `@` list's numbers alone (measure-mentions.ts). */
import { DATA_DIR } from "../paths.js";
import { measureMentions, mentionsLine } from "./measure-mentions.js";

measureMentions(DATA_DIR).then(
  (m) => console.log(mentionsLine(m)),
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
