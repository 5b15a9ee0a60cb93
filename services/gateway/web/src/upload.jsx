// Upload by drag-and-drop or file picker, with a progress bar. The gateway streams the file to
// trace-query; its errors (junk file, checksum, size limit) are shown as it words them.

import { useState } from 'preact/hooks';
import { uploadTrace } from './api.js';
import { formatBytes } from './format.js';

export function Upload({ maxBytes, onUploaded }) {
  const [progress, setProgress] = useState(null);
  const [error, setError] = useState(null);
  const [over, setOver] = useState(false);

  const send = async (file) => {
    if (!file) return;
    setError(null);
    if (maxBytes && file.size > maxBytes) {
      setError(
        `${file.name} is ${formatBytes(file.size)}, over the server's upload limit of ${formatBytes(maxBytes)}: refused`,
      );
      return;
    }
    setProgress(0);
    try {
      const result = await uploadTrace(file, setProgress);
      setProgress(null);
      onUploaded(result);
    } catch (e) {
      setProgress(null);
      setError(`${file.name}: ${e.message}`);
    }
  };

  return (
    <section
      class={'upload' + (over ? ' over' : '')}
      aria-label="Upload a trace"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        send(e.dataTransfer.files[0]);
      }}
    >
      <p>
        Drop a Perfetto trace (.pftrace, .perfetto-trace, systrace) here, or{' '}
        <label class="button" for="trace-file">
          choose a file
        </label>
        <input
          id="trace-file"
          type="file"
          aria-label="Trace file"
          class="file-input"
          onChange={(e) => {
            send(e.currentTarget.files[0]);
            e.currentTarget.value = '';
          }}
        />
      </p>
      {maxBytes ? <p class="muted small">Up to {formatBytes(maxBytes)}.</p> : null}
      {progress !== null ? (
        <progress aria-label="Upload progress" max="1" value={progress}>
          {Math.round(progress * 100)}%
        </progress>
      ) : null}
      {error ? (
        <div class="error" role="alert">
          {error}
        </div>
      ) : null}
    </section>
  );
}
