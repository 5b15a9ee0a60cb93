// One DataEnvelope as a table: typed columns with units, sortable by any column, rows that a
// finding's number can point at (id "row-ARTIFACT-N", highlighted when targeted).

import { useMemo, useState } from 'preact/hooks';
import { columnUnitLabel, formatCell } from './format.js';

function compare(a, b) {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b));
}

export function rowDomId(artifactId, row) {
  return `row-${artifactId}-${row}`.replace(/[^A-Za-z0-9_-]/g, '_');
}

export function EvidenceTable({ artifact, traceStart, highlightRow, maxRows = 200 }) {
  const [sort, setSort] = useState({ column: -1, descending: false });
  const columns = artifact.columns || [];
  const indexed = useMemo(() => (artifact.rows || []).map((cells, i) => ({ cells, i })), [artifact]);
  const rows = useMemo(() => {
    if (sort.column < 0) return indexed;
    const sorted = indexed.slice().sort((x, y) => compare(x.cells[sort.column], y.cells[sort.column]));
    return sort.descending ? sorted.reverse() : sorted;
  }, [indexed, sort]);
  const shown = rows.slice(0, maxRows);
  const total = artifact.total_rows != null ? artifact.total_rows : indexed.length;
  return (
    <div class="evidence" id={`artifact-${artifact.id}`.replace(/[^A-Za-z0-9_-]/g, '_')}>
      <div class="evidence-title">
        <code>{artifact.id}</code> {artifact.title}
        {artifact.skill ? <span class="muted"> — skill {artifact.skill}{artifact.step ? ' / ' + artifact.step : ''}</span> : null}
      </div>
      <div class="table-scroll">
        <table class="data" aria-label={`Evidence ${artifact.id}`}>
          <thead>
            <tr>
              {columns.map((c, ci) => {
                const active = sort.column === ci;
                const unit = columnUnitLabel(c);
                return (
                  <th
                    key={ci}
                    aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : 'none'}
                  >
                    <button
                      type="button"
                      class="sort"
                      onClick={() =>
                        setSort({ column: ci, descending: active ? !sort.descending : false })
                      }
                    >
                      {c.name}
                      {unit ? <span class="unit"> ({unit})</span> : null}
                      {active ? (sort.descending ? ' ▼' : ' ▲') : ''}
                    </button>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {shown.map(({ cells, i }) => (
              <tr key={i} id={rowDomId(artifact.id, i)} class={highlightRow === i ? 'target' : ''}>
                {cells.map((v, ci) => (
                  <td key={ci} class={typeof v === 'number' ? 'num' : ''}>
                    {formatCell(v, columns[ci], traceStart)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {total > shown.length ? (
        <div class="muted small">
          {shown.length} of {total} rows shown{artifact.truncated ? ' (the result was cut by a row limit)' : ''}
        </div>
      ) : null}
    </div>
  );
}
