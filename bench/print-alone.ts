/**
 * A part of the benchmark run alone (`node --import tsx bench/<part>/<file>.ts`) prints its lines as `[bench] …`;
 * a failure prints its stack and ends the process with exit code 1 (at once: a failed measurement may leave a
 * server or a child open).
 */
export function printAlone<T>(measure: Promise<T>, lines: (m: T) => readonly string[]): void {
  measure
    .then((m) => lines(m).forEach((line) => console.log(`[bench] ${line}`)))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
