#include "libs/trace/query/sql_docs.h"

#include <cctype>

#include "absl/strings/str_cat.h"
#include "libs/trace/query/perfetto_sql.h"

namespace tw {
namespace {

absl::string_view Piece(std::string_view s) { return absl::string_view(s.data(), s.size()); }

size_t Newlines(std::string_view s) {
  size_t n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

std::string CollapseSpaces(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !out.empty();
      continue;
    }
    if (space) out.push_back(' ');
    space = false;
    out.push_back(c);
  }
  return out;
}

// The text of one `--` comment line: the dashes and one following space removed. Lines of only
// dashes (section rules) say nothing.
std::string CommentText(std::string_view comment) {
  if (comment.substr(0, 2) != "--") return "";
  size_t i = 2;
  while (i < comment.size() && comment[i] == '-') ++i;
  std::string_view rest = comment.substr(i);
  if (i > 2 && !rest.empty() && rest.front() != ' ') return "";  // "----- section" rules
  while (!rest.empty() && std::isspace(static_cast<unsigned char>(rest.front())))
    rest.remove_prefix(1);
  while (!rest.empty() && std::isspace(static_cast<unsigned char>(rest.back())))
    rest.remove_suffix(1);
  return std::string(rest);
}

class DocParser {
 public:
  explicit DocParser(std::string_view sql) {
    SqlTokenizer tokenizer(sql);
    for (SqlToken t = tokenizer.Next(); t.type != SqlTokenType::kEnd; t = tokenizer.Next()) {
      if (t.significant()) significant_.push_back(tokens_.size());
      tokens_.push_back(t);
    }
  }

  absl::StatusOr<SqlModuleDoc> Parse(std::string_view module_name) {
    SqlModuleDoc module;
    module.name = std::string(module_name);
    module.doc = ModuleDoc();
    size_t s = 0;  // index into significant_
    while (s < significant_.size()) {
      const size_t start = s;
      const size_t end = StatementEnd(s);
      absl::Status st = ParseStatement(start, end, &module);
      if (!st.ok()) return st;
      s = end + 1;
    }
    return module;
  }

 private:
  const SqlToken& Sig(size_t s) const { return tokens_[significant_[s]]; }
  bool SigIs(size_t s, size_t end, std::string_view word) const {
    return s < end && Sig(s).Is(word);
  }

  // Index (into significant_) of the ';' ending the statement starting at `s`, or the count.
  size_t StatementEnd(size_t s) const {
    int depth = 0;
    for (; s < significant_.size(); ++s) {
      const SqlToken& t = Sig(s);
      if (t.Is("(")) ++depth;
      if (t.Is(")")) --depth;
      if (t.Is(";") && depth <= 0) return s;
    }
    return s;
  }

  // The `--` comment block directly above token `token_index` (no blank line in between).
  std::string DocBefore(size_t token_index) const {
    std::vector<std::string> lines;
    size_t i = token_index;
    while (i > 0) {
      const SqlToken& prev = tokens_[i - 1];
      if (prev.type == SqlTokenType::kSpace) {
        if (Newlines(prev.text) > 1) break;
        --i;
        continue;
      }
      if (prev.type != SqlTokenType::kComment || prev.text.substr(0, 2) != "--") break;
      // A comment ending a line of code (`x LONG, -- ...`) belongs to that line.
      if (i >= 2 && tokens_[i - 2].type != SqlTokenType::kSpace) break;
      if (i >= 2 && Newlines(tokens_[i - 2].text) == 0 && i - 2 > 0) break;
      lines.push_back(CommentText(prev.text));
      --i;
    }
    std::string doc;
    for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
      if (it->empty()) continue;
      if (!doc.empty()) doc.push_back(' ');
      doc += *it;
    }
    return doc;
  }

  // The comment block that opens the file, when a blank line separates it from what follows.
  std::string ModuleDoc() const {
    std::vector<std::string> lines;
    for (size_t i = 0; i < tokens_.size(); ++i) {
      const SqlToken& t = tokens_[i];
      if (t.type == SqlTokenType::kSpace) {
        if (Newlines(t.text) > 1 && !lines.empty()) break;
        continue;
      }
      if (t.type != SqlTokenType::kComment) return "";  // code first: no module doc
      lines.push_back(CommentText(t.text));
    }
    std::string doc;
    for (const std::string& line : lines) {
      if (line.empty()) continue;
      if (!doc.empty()) doc.push_back(' ');
      doc += line;
    }
    return doc;
  }

  // Parses "( item, item, ... )" starting at significant index `s` (the '('); each item is a
  // name followed by its type. Returns the index after ')'.
  absl::StatusOr<size_t> ParseList(size_t s, size_t end, std::string_view what,
                                   std::vector<SqlColumnDoc>* out) {
    if (!SigIs(s, end, "(")) return s;
    ++s;
    if (SigIs(s, end, ")")) return s + 1;
    while (s < end) {
      const SqlToken& name_token = Sig(s);
      if (name_token.type != SqlTokenType::kWord && name_token.type != SqlTokenType::kQuotedName) {
        return absl::InvalidArgumentError(absl::StrCat("expected a name in ", Piece(what),
                                                       ", got '", Piece(name_token.text), "'"));
      }
      SqlColumnDoc item;
      item.name = name_token.type == SqlTokenType::kQuotedName && name_token.text.size() >= 2
                      ? std::string(name_token.text.substr(1, name_token.text.size() - 2))
                      : std::string(name_token.text);
      item.doc = DocBefore(significant_[s]);
      ++s;
      int depth = 0;
      const size_t type_start = s;
      while (s < end) {
        const SqlToken& t = Sig(s);
        if (depth == 0 && (t.Is(",") || t.Is(")"))) break;
        if (t.Is("(")) ++depth;
        if (t.Is(")")) --depth;
        ++s;
      }
      if (s >= end) {
        return absl::InvalidArgumentError(absl::StrCat("unclosed list in ", Piece(what)));
      }
      if (s == type_start) {
        return absl::InvalidArgumentError(
            absl::StrCat(Piece(what), ": '", item.name, "' has no type"));
      }
      const char* first = Sig(type_start).text.data();
      const SqlToken& last = Sig(s - 1);
      item.type = CollapseSpaces(std::string_view(
          first, static_cast<size_t>(last.text.data() + last.text.size() - first)));
      out->push_back(std::move(item));
      if (Sig(s).Is(")")) return s + 1;
      ++s;  // ','
    }
    return absl::InvalidArgumentError(absl::StrCat("unclosed list in ", Piece(what)));
  }

  absl::Status ParseStatement(size_t s, size_t end, SqlModuleDoc* module) {
    if (SigIs(s, end, "INCLUDE") && SigIs(s + 1, end, "PERFETTO") && SigIs(s + 2, end, "MODULE")) {
      std::string name;
      for (size_t i = s + 3; i < end; ++i) name += std::string(Sig(i).text);
      module->includes.push_back(name);
      return absl::OkStatus();
    }
    if (!SigIs(s, end, "CREATE")) return absl::OkStatus();
    const size_t create_token = significant_[s];
    size_t i = s + 1;
    if (SigIs(i, end, "OR") && SigIs(i + 1, end, "REPLACE")) i += 2;
    if (!SigIs(i, end, "PERFETTO")) return absl::OkStatus();
    ++i;
    SqlObjectDoc obj;
    if (SigIs(i, end, "TABLE")) {
      obj.kind = SqlObjectDoc::Kind::kTable;
    } else if (SigIs(i, end, "VIEW")) {
      obj.kind = SqlObjectDoc::Kind::kView;
    } else if (SigIs(i, end, "FUNCTION")) {
      obj.kind = SqlObjectDoc::Kind::kFunction;
    } else if (SigIs(i, end, "MACRO")) {
      obj.kind = SqlObjectDoc::Kind::kMacro;
    } else {
      return absl::OkStatus();  // indexes are not documented
    }
    ++i;
    if (i >= end) return absl::InvalidArgumentError("CREATE PERFETTO without a name");
    obj.name = std::string(Sig(i).text);
    obj.module = module->name;
    obj.doc = DocBefore(create_token);
    ++i;
    const std::string what = absl::StrCat("'", obj.name, "'");
    const bool callable =
        obj.kind == SqlObjectDoc::Kind::kFunction || obj.kind == SqlObjectDoc::Kind::kMacro;
    auto next = ParseList(i, end, what, callable ? &obj.args : &obj.columns);
    if (!next.ok()) return next.status();
    i = *next;
    if (callable && SigIs(i, end, "RETURNS")) {
      obj.return_doc = DocBefore(significant_[i]);
      ++i;
      if (SigIs(i, end, "TABLE")) {
        obj.kind = SqlObjectDoc::Kind::kTableFunction;
        auto after = ParseList(i + 1, end, what, &obj.columns);
        if (!after.ok()) return after.status();
        i = *after;
      } else {
        const size_t type_start = i;
        while (i < end && !Sig(i).Is("AS") && !Sig(i).Is("DELEGATES")) ++i;
        if (i > type_start) {
          const char* first = Sig(type_start).text.data();
          const SqlToken& last = Sig(i - 1);
          obj.return_type = CollapseSpaces(std::string_view(
              first, static_cast<size_t>(last.text.data() + last.text.size() - first)));
        }
      }
    }
    for (; i < end; ++i) {
      const std::string_view word = Sig(i).text;
      if (Sig(i).type == SqlTokenType::kWord && word.substr(0, 12) == "__intrinsic_") {
        std::string table(word.substr(12));
        bool seen = false;
        for (const std::string& r : obj.reads_intrinsic) seen |= r == table;
        if (!seen) obj.reads_intrinsic.push_back(std::move(table));
      }
    }
    module->objects.push_back(std::move(obj));
    return absl::OkStatus();
  }

  std::vector<SqlToken> tokens_;
  std::vector<size_t> significant_;  // indexes into tokens_
};

}  // namespace

const char* SqlObjectKindName(SqlObjectDoc::Kind kind) {
  switch (kind) {
    case SqlObjectDoc::Kind::kTable:
      return "table";
    case SqlObjectDoc::Kind::kView:
      return "view";
    case SqlObjectDoc::Kind::kFunction:
      return "function";
    case SqlObjectDoc::Kind::kTableFunction:
      return "table function";
    case SqlObjectDoc::Kind::kMacro:
      return "macro";
  }
  return "";
}

absl::StatusOr<SqlModuleDoc> ParseSqlModuleDocs(std::string_view module_name,
                                                std::string_view sql) {
  DocParser parser(sql);
  auto parsed = parser.Parse(module_name);
  if (!parsed.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("module ", Piece(module_name), ": ", parsed.status().message()));
  }
  return parsed;
}

}  // namespace tw
