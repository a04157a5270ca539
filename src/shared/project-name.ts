// Project names (spec "Query parameters"): the `project` query parameter and the command line's `--project`.
// One pattern for the server and the command line.
export const PROJECT_RE = /^[A-Za-z0-9._-]+$/;

export function isProjectName(s: string): boolean {
  return PROJECT_RE.test(s);
}
