// A finding's text with every number the gateway located in the cited evidence turned into a
// link to the artifact row it came from (links: [{start, end, artifact_id, row}], offsets in
// UTF-16 code units of the text).

export function LinkedText({ text, links, onLink }) {
  if (!links || !links.length) return <>{text}</>;
  const parts = [];
  let at = 0;
  const sorted = links.slice().sort((a, b) => a.start - b.start);
  sorted.forEach((l, i) => {
    if (l.start < at || l.end > text.length) return;
    if (l.start > at) parts.push(text.slice(at, l.start));
    parts.push(
      <a
        key={i}
        href={`#evidence-${l.artifact_id}-${l.row}`}
        class="number-link"
        title={`${l.artifact_id}, row ${l.row + 1}`}
        onClick={(ev) => {
          ev.preventDefault();
          onLink(l);
        }}
      >
        {text.slice(l.start, l.end)}
      </a>,
    );
    at = l.end;
  });
  if (at < text.length) parts.push(text.slice(at));
  return <>{parts}</>;
}
