import Database from 'better-sqlite3';
const proto = (Database as any).prototype;
const origPrepare = proto.prepare;
const totals = new Map<string, { ms: number; n: number; rows: number }>();
proto.prepare = function (sql: string) {
  const st = origPrepare.call(this, sql);
  for (const m of ['all', 'get', 'iterate']) {
    const f = st[m].bind(st);
    st[m] = (...a: unknown[]) => {
      const t = performance.now();
      const r = f(...a);
      const e = totals.get(sql) ?? { ms: 0, n: 0, rows: 0 };
      e.ms += performance.now() - t; e.n++; e.rows += Array.isArray(r) ? r.length : 1;
      totals.set(sql, e);
      return r;
    };
  }
  const raw = st.raw.bind(st); st.raw = (...a: unknown[]) => { raw(...a); return st; };
  return st;
};
process.on('exit', () => {
  for (const [sql, e] of [...totals].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12)) console.log(e.ms.toFixed(0).padStart(6), 'ms', String(e.n).padStart(5), 'calls', String(Math.round(e.rows / e.n)).padStart(6), 'rows/call', sql.replace(/\s+/g, ' ').slice(0, 400));
});
