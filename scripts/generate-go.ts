/** `npm run generate`'s Go half: the stubs in clients/go/gen, plugins built on first use. */
import { generateGoStubs } from "./go-stubs.js";

const projectRoot = process.cwd();
const result = await generateGoStubs(projectRoot, { projectRoot, log: (line) => console.log(line) });
if (!result.ok) {
  console.error(result.output);
  process.exitCode = 1;
}
