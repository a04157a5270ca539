// The columns of a branch table (project and repository views) and how a branch name reads.
import { html } from 'lit';
import type { BranchRow } from '../../../src/shared/api-types.ts';
import { formatDateTime, formatInt, formatTokens, formatUsd } from '../format.ts';
import type { Column } from './cost-table.ts';

/** A detached checkout and usage recorded without a branch say so. */
export const branchLabel = (b: string | null): string => (b === null ? '(no branch)' : b === 'HEAD' ? 'HEAD (detached)' : b);

export function branchColumns(): Column<BranchRow>[] {
  return [
    { key: 'branch', label: 'Branch', value: (b) => branchLabel(b.branch), render: (b) => html`<span class="branch">${branchLabel(b.branch)}</span>` },
    { key: 'cost', label: 'Cost', numeric: true, value: (b) => b.cost, render: (b) => html`<b>${formatUsd(b.cost)}</b>` },
    { key: 'sessions', label: 'Sessions', numeric: true, value: (b) => b.sessions, render: (b) => formatInt(b.sessions) },
    { key: 'messages', label: 'Messages', numeric: true, value: (b) => b.messages, render: (b) => formatInt(b.messages) },
    { key: 'tokens', label: 'Tokens', numeric: true, value: (b) => b.totalTokens, render: (b) => formatTokens(b.totalTokens) },
    { key: 'last', label: 'Last activity', value: (b) => b.lastActivity, render: (b) => formatDateTime(b.lastActivity) },
  ];
}
