// Every error a route can answer with. Routes throw these; the server's one error sink turns
// `status` + `message` into the JSON body `{error}` (texts from the spec and decisions.md).
import { INVALID_RANGE } from '../calendar/range.ts';

export class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
    this.name = 'HttpError';
  }
}

export const Errors = {
  badRange: () => new HttpError(400, INVALID_RANGE),
  badProject: () => new HttpError(400, 'Invalid project'),
  badRepository: () => new HttpError(400, 'Invalid repository'),
  badMachine: () => new HttpError(400, 'Invalid machine'),
  sessionNotFound: () => new HttpError(404, 'Session not found'),
  projectNotFound: () => new HttpError(404, 'Project not found'),
  repositoryNotFound: () => new HttpError(404, 'Repository not found'),
  notFound: () => new HttpError(404, 'Not found'),
  probeFailed: (message: string) => new HttpError(503, message),
};
