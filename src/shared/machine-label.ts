// Machine labels (decisions.md "Several machines"): `--machine`, the `label=` of a `--dir` entry, and the `machine`
// query parameter the dashboard puts in its URLs. One pattern for the config, the server and the browser.
export const MACHINE_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
