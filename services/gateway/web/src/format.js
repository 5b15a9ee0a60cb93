// Display of typed values: DataEnvelope column types (duration_ns, timestamp_ns, percent, bytes,
// ...) and their units. Every value from a trace ends up as text, never as markup.

export function formatDurationNs(ns) {
  if (ns == null || Number.isNaN(ns)) return '';
  const a = Math.abs(ns);
  if (a >= 1e9) return (ns / 1e9).toFixed(a >= 1e11 ? 0 : 2) + ' s';
  if (a >= 1e6) return (ns / 1e6).toFixed(a >= 1e8 ? 0 : 2) + ' ms';
  if (a >= 1e3) return (ns / 1e3).toFixed(1) + ' µs';
  return ns + ' ns';
}

export function formatBytes(n) {
  if (n == null) return '';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = Number(n);
  let i = 0;
  while (Math.abs(v) >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return (i === 0 ? String(v) : v.toFixed(1)) + ' ' + units[i];
}

// A timestamp relative to the trace start, when known.
export function formatTimestampNs(ns, traceStart) {
  if (ns == null) return '';
  if (traceStart != null) return ((ns - traceStart) / 1e9).toFixed(6) + ' s';
  return String(ns);
}

export function formatNumber(v) {
  if (typeof v !== 'number') return String(v);
  if (Number.isInteger(v)) return v.toLocaleString('en-US');
  return Math.abs(v) >= 100 ? v.toFixed(1) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toPrecision(3);
}

// One cell as text, by its column's type and unit.
export function formatCell(value, column, traceStart) {
  if (value === null || value === undefined) return '—';
  const type = column ? column.type : '';
  const unit = column && column.unit ? column.unit : '';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  switch (type) {
    case 'duration_ns':
      return formatDurationNs(value);
    case 'timestamp_ns':
      return formatTimestampNs(value, traceStart);
    case 'percent':
      return formatNumber(value) + ' %';
    case 'bytes':
      return formatBytes(value);
    case 'bool':
      return value ? 'yes' : 'no';
    default:
      return formatNumber(value) + (unit ? ' ' + unit : '');
  }
}

// The column header's unit hint, e.g. "dur (ms)".
export function columnUnitLabel(column) {
  switch (column.type) {
    case 'duration_ns':
      return 'duration';
    case 'timestamp_ns':
      return 'time';
    case 'percent':
      return '%';
    case 'bytes':
      return 'bytes';
    default:
      return column.unit || '';
  }
}

export const SEVERITY_ORDER = ['critical', 'high', 'medium', 'low', 'info'];

export function traceStateName(state) {
  return (state || 'unknown').toLowerCase();
}
