#include "libs/trace/query/result_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "absl/strings/str_cat.h"

namespace tw {
namespace {

// printf("%f") of any finite double fits: at most 309 integer digits, sign, point, 6 decimals.
constexpr size_t kFixedDoubleBufferSize = 400;

// Exactly trace_processor's `fprintf(output, "%f", value)`, including "nan", "-nan", "inf".
std::string PrintfFixed(double v) {
  char buf[kFixedDoubleBufferSize];
  int n = std::snprintf(buf, sizeof(buf), "%f", v);
  if (n < 0) return "nan";
  return std::string(buf, std::min(static_cast<size_t>(n), sizeof(buf) - 1));
}

// The shortest text that reads back as the same double, for people and JSON (where the CSV's
// fixed six decimals would turn 1e-9 into 0.000000). Fixed notation in the range people read
// comfortably, scientific outside it; ".0" keeps integral doubles recognisable as doubles.
// Callers handle NaN and infinities.
std::string ShortestDouble(double v) {
  char buf[kFixedDoubleBufferSize];
  double mag = std::fabs(v);
  bool fixed = mag == 0 || (mag >= 1e-4 && mag < 1e15);
  auto res = std::to_chars(buf, buf + sizeof(buf), v,
                           fixed ? std::chars_format::fixed : std::chars_format::scientific);
  if (res.ec != std::errc()) return PrintfFixed(v);
  std::string s(buf, res.ptr);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

bool IsContinuationByte(unsigned char c) { return (c & 0xC0) == 0x80; }

// Length of the valid UTF-8 sequence starting at s[i], or 0 if it is not one (overlong forms,
// surrogates and code points above U+10FFFF are invalid, per RFC 3629).
size_t Utf8SequenceLength(std::string_view s, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = byte(i);
  if (c < 0x80) return 1;
  size_t len = 0;
  uint32_t cp = 0;
  if ((c & 0xE0) == 0xC0) {
    len = 2;
    cp = c & 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    len = 3;
    cp = c & 0x0F;
  } else if ((c & 0xF8) == 0xF0) {
    len = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    if (!IsContinuationByte(byte(i + k))) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  static constexpr uint32_t kMinForLength[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMinForLength[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

// --- FormatTable helpers ---

// A cell as shown in the table: one line, control characters made visible.
std::string TableCellText(const SqlValue& v) {
  switch (v.type) {
    case SqlValue::Type::kNull:
      return "[NULL]";
    case SqlValue::Type::kInt:
      return absl::StrCat(v.int_value);
    case SqlValue::Type::kDouble:
      return std::isfinite(v.double_value) ? ShortestDouble(v.double_value)
                                           : PrintfFixed(v.double_value);
    case SqlValue::Type::kString:
      break;
  }
  std::string out;
  out.reserve(v.string_value.size());
  for (char ch : v.string_value) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\x%02x", c);
      out += buf;
    } else {
      out += ch;
    }
  }
  return out;
}

// Display width in characters: UTF-8 continuation bytes do not advance the cursor. (East Asian
// wide characters count as one; good enough for alignment of mostly-ASCII trace data.)
size_t DisplayWidth(std::string_view s) {
  size_t w = 0;
  for (char ch : s) w += IsContinuationByte(static_cast<unsigned char>(ch)) ? 0 : 1;
  return w;
}

// Cuts `s` to at most `max_width` characters, never inside a UTF-8 sequence; cut cells end in
// "..." so a reader knows there is more.
std::string Truncate(std::string s, size_t max_width) {
  if (max_width == 0 || DisplayWidth(s) <= max_width) return s;
  size_t keep = max_width > 3 ? max_width - 3 : max_width;
  size_t chars = 0;
  size_t i = 0;
  for (; i < s.size(); ++i) {
    if (!IsContinuationByte(static_cast<unsigned char>(s[i]))) {
      if (chars == keep) break;
      ++chars;
    }
  }
  s.resize(i);
  if (max_width > 3) s += "...";
  return s;
}

void AppendPadded(std::string* out, std::string_view text, size_t width, bool right_align,
                  bool last_column) {
  size_t pad = width - std::min(width, DisplayWidth(text));
  if (right_align) out->append(pad, ' ');
  out->append(text);
  // No trailing blanks at the end of a line.
  if (!right_align && !last_column) out->append(pad, ' ');
}

// --- CsvEquivalent helpers ---

std::string_view StripWhitespace(std::string_view s) {
  constexpr std::string_view kSpace = " \t\r\n\v\f";
  size_t b = s.find_first_not_of(kSpace);
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(kSpace);
  return s.substr(b, e - b + 1);
}

std::vector<std::string_view> SignificantLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = StripWhitespace(text.substr(pos, nl - pos));
    if (!line.empty()) lines.push_back(line);
    pos = nl + 1;
  }
  return lines;
}

// Keeps diff reports short even when a row holds a multi-kilobyte string.
std::string Abbreviate(std::string_view line) {
  constexpr size_t kMaxShown = 160;
  if (line.size() <= kMaxShown) return std::string(line);
  return absl::StrCat(absl::string_view(line.data(), kMaxShown), "... (", line.size(), " bytes)");
}

}  // namespace

std::string FormatCsvOutputs(const QueryResult& result) {
  std::string out;
  for (size_t i = 0; i < result.outputs.size(); ++i) {
    if (i > 0) out += "\n";
    out += FormatCsv(result.outputs[i]);
  }
  return out;
}

std::string FormatCsvValue(const SqlValue& value) {
  switch (value.type) {
    case SqlValue::Type::kNull:
      return "\"[NULL]\"";
    case SqlValue::Type::kInt:
      return absl::StrCat(value.int_value);
    case SqlValue::Type::kDouble:
      return PrintfFixed(value.double_value);
    case SqlValue::Type::kString: {
      // trace_processor prints the C string, so anything after an embedded NUL is lost; no
      // quoting of '"' either (expected.csv files contain lines like "+job=<num>:"com.x"").
      const std::string& s = value.string_value;
      size_t nul = s.find('\0');
      return absl::StrCat("\"", absl::string_view(s.data(), std::min(nul, s.size())), "\"");
    }
  }
  return "\"[NULL]\"";
}

std::string FormatCsv(const QueryResult& result) {
  std::string out;
  for (size_t c = 0; c < result.columns.size(); ++c) {
    if (c > 0) out += ',';
    out += '"';
    out += result.columns[c];
    out += '"';
  }
  out += '\n';
  for (const auto& row : result.rows) {
    for (size_t c = 0; c < row.size(); ++c) {
      if (c > 0) out += ',';
      out += FormatCsvValue(row[c]);
    }
    out += '\n';
  }
  return out;
}

std::string FormatTable(const QueryResult& result, size_t max_col_width) {
  const size_t ncols = result.columns.size();
  std::vector<std::string> header(ncols);
  std::vector<std::vector<std::string>> cells(result.rows.size());
  std::vector<size_t> width(ncols, 0);
  // A column is right-aligned when every non-NULL value in it is a number.
  std::vector<bool> numeric(ncols, true);
  std::vector<bool> has_value(ncols, false);

  for (size_t c = 0; c < ncols; ++c) {
    header[c] = Truncate(result.columns[c], max_col_width);
    width[c] = DisplayWidth(header[c]);
  }
  for (size_t r = 0; r < result.rows.size(); ++r) {
    const auto& row = result.rows[r];
    cells[r].resize(ncols);
    for (size_t c = 0; c < ncols && c < row.size(); ++c) {
      const SqlValue& v = row[c];
      if (!v.is_null()) {
        has_value[c] = true;
        if (v.type == SqlValue::Type::kString) numeric[c] = false;
      }
      cells[r][c] = Truncate(TableCellText(v), max_col_width);
      width[c] = std::max(width[c], DisplayWidth(cells[r][c]));
    }
  }

  std::string out;
  // Headers follow their column's alignment so a number column's title sits over its digits.
  auto append_line = [&](const std::vector<std::string>& line) {
    for (size_t c = 0; c < ncols; ++c) {
      if (c > 0) out += " | ";
      AppendPadded(&out, line[c], width[c], numeric[c] && has_value[c], c + 1 == ncols);
    }
    out += '\n';
  };
  if (ncols > 0) {
    append_line(header);
    for (size_t c = 0; c < ncols; ++c) {
      if (c > 0) out += "-+-";
      out.append(width[c], '-');
    }
    out += '\n';
    for (const auto& line : cells) append_line(line);
  }
  size_t n = result.rows.size();
  absl::StrAppend(&out, "(", n, n == 1 ? " row" : " rows", result.truncated ? ", truncated" : "",
                  ")\n");
  return out;
}

std::string JsonQuote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      size_t len = Utf8SequenceLength(s, i);
      if (len == 0) {
        out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
        ++i;
      } else {
        out.append(s.substr(i, len));
        i += len;
      }
      continue;
    }
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
    ++i;
  }
  out += '"';
  return out;
}

std::string FormatJson(const QueryResult& result) {
  std::string out = "{\"columns\":[";
  for (size_t c = 0; c < result.columns.size(); ++c) {
    if (c > 0) out += ',';
    out += JsonQuote(result.columns[c]);
  }
  out += "],\"rows\":[";
  for (size_t r = 0; r < result.rows.size(); ++r) {
    if (r > 0) out += ',';
    out += '[';
    const auto& row = result.rows[r];
    for (size_t c = 0; c < row.size(); ++c) {
      if (c > 0) out += ',';
      const SqlValue& v = row[c];
      switch (v.type) {
        case SqlValue::Type::kNull:
          out += "null";
          break;
        case SqlValue::Type::kInt:
          absl::StrAppend(&out, v.int_value);
          break;
        case SqlValue::Type::kDouble:
          // JSON has no NaN or infinity.
          out += std::isfinite(v.double_value) ? ShortestDouble(v.double_value) : "null";
          break;
        case SqlValue::Type::kString:
          out += JsonQuote(v.string_value);
          break;
      }
    }
    out += ']';
  }
  absl::StrAppend(&out, "],\"truncated\":", result.truncated ? "true" : "false", "}");
  return out;
}

bool CsvEquivalent(std::string_view expected, std::string_view actual, std::string* diff) {
  std::vector<std::string_view> want = SignificantLines(expected);
  std::vector<std::string_view> got = SignificantLines(actual);
  if (want == got) {
    if (diff) diff->clear();
    return true;
  }
  if (!diff) return false;

  constexpr int kMaxShownDifferences = 3;
  const size_t n = std::max(want.size(), got.size());
  std::string details;
  size_t first = n;
  int shown = 0;
  for (size_t i = 0; i < n && shown < kMaxShownDifferences; ++i) {
    bool have_want = i < want.size();
    bool have_got = i < got.size();
    if (have_want && have_got && want[i] == got[i]) continue;
    if (first == n) first = i;
    ++shown;
    // Line numbers count non-blank lines, header = line 1.
    absl::StrAppend(&details, "line ", i + 1,
                    ":\n  expected: ", have_want ? Abbreviate(want[i]) : "(no line)",
                    "\n  actual:   ", have_got ? Abbreviate(got[i]) : "(no line)", "\n");
  }
  std::string summary;
  if (want.size() != got.size()) {
    summary = absl::StrCat("expected ", want.size(), " lines, got ", got.size(),
                           "; first difference at line ", first + 1);
  } else {
    summary = absl::StrCat("first difference at line ", first + 1, " of ", want.size());
  }
  *diff = absl::StrCat(summary, "\n", details);
  return false;
}

}  // namespace tw
