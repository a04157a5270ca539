// The budget states in words (issue 36): "Over by $X" only for money spent, "On pace for $X" for a projection past the
// amount, and the alert on either; the snooze's request names the budget.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { BudgetStatus } from '../../src/shared/api-types.ts';
import { alertText, isAlert, snoozePath, stateText } from '../../ui/src/budgets.ts';

const t = suite('budget words');
const budget = (over: Partial<BudgetStatus>): BudgetStatus => ({
  period: 'monthly', project: null, amount: 2000, projectName: null, from: '2026-11-01', to: '2026-11-30', end: '2026-12-01T00:00:00.000Z',
  use: 1330.98, projected: 2324, state: 'warn', alerted: false, snoozed: false, ...over,
});

t('a projection past the amount is on pace, never over', () => {
  const b = budget({});
  assert.is(stateText(b), 'On pace for $2,324.00');
  assert.is(isAlert(b), true);
  assert.is(alertText(b), 'Monthly budget for every project on pace for $2,324.00 by the end of the month ($1,330.98 of $2,000.00 so far)');
});

t('over by what was spent past the amount', () => {
  const b = budget({ period: 'daily', amount: 40, use: 71.1, projected: 80, state: 'over' });
  assert.is(stateText(b), 'Over by $31.10');
  assert.is(alertText(b), 'Daily budget for every project passed: $71.10 of $40.00');
});

t('under the amount: on track or near the limit, no alert', () => {
  assert.is(stateText(budget({ projected: 1500, state: 'ok' })), 'On track');
  assert.is(stateText(budget({ projected: 1900 })), 'Near the limit');
  assert.is(isAlert(budget({ projected: 2000 })), false);
});

t('the snooze request names the period and the project', () => {
  assert.is(snoozePath(budget({})), '/api/budgets/snooze?period=monthly');
  assert.is(snoozePath(budget({ period: 'weekly', project: '-home-dev-a' })), '/api/budgets/snooze?period=weekly&project=-home-dev-a');
});

t.run();
