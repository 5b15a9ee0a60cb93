#include "libs/trace/query/perfetto_sql.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/common/status_macros.h"
#include "libs/trace/query/interval_intersect_sql.h"

namespace tw {
namespace {

// Abseil's string helpers take absl::string_view, which is not std::string_view here.
std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// absl::StrCat does not take std::string_view on this Abseil; Piece() converts just those.
absl::string_view Piece(std::string_view s) { return absl::string_view(s.data(), s.size()); }
template <typename T>
const T& Piece(const T& v) {
  return v;
}

template <typename... Args>
absl::Status Invalid(const Args&... args) {
  return absl::InvalidArgumentError(absl::StrCat(Piece(args)...));
}

bool IsWordStart(char c) {
  const auto u = static_cast<unsigned char>(c);
  return std::isalnum(u) || c == '_' || u >= 0x80;
}
bool IsWordChar(char c) { return IsWordStart(c) || c == '$'; }

// The name a word or quoted-name token denotes: quotes removed, doubled quotes collapsed.
std::string Unquote(const SqlToken& t) {
  if (t.type != SqlTokenType::kQuotedName || t.text.size() < 2) return std::string(t.text);
  const char open = t.text.front();
  const char close = open == '[' ? ']' : open;
  std::string out;
  std::string_view in = t.text.substr(1, t.text.size() - 2);
  for (size_t i = 0; i < in.size(); ++i) {
    out.push_back(in[i]);
    if (in[i] == close && open != '[' && i + 1 < in.size() && in[i + 1] == close) ++i;
  }
  return out;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Lexing

bool SqlToken::Is(std::string_view word) const {
  return (type == SqlTokenType::kWord || type == SqlTokenType::kPunct) &&
         EqualsIgnoreCase(text, word);
}

SqlToken SqlTokenizer::Next() {
  const size_t n = sql_.size();
  if (pos_ >= n) return {SqlTokenType::kEnd, sql_.substr(n)};
  const size_t start = pos_;
  const char c = sql_[pos_];
  auto make = [&](SqlTokenType type) { return SqlToken{type, sql_.substr(start, pos_ - start)}; };
  auto peek = [&](size_t ahead) { return pos_ + ahead < n ? sql_[pos_ + ahead] : '\0'; };

  if (std::isspace(static_cast<unsigned char>(c))) {
    while (pos_ < n && std::isspace(static_cast<unsigned char>(sql_[pos_]))) ++pos_;
    return make(SqlTokenType::kSpace);
  }
  if (c == '-' && peek(1) == '-') {
    while (pos_ < n && sql_[pos_] != '\n') ++pos_;
    return make(SqlTokenType::kComment);
  }
  if (c == '/' && peek(1) == '*') {
    const size_t end = sql_.find("*/", pos_ + 2);
    pos_ = end == std::string_view::npos ? n : end + 2;
    return make(SqlTokenType::kComment);
  }
  if (c == '\'' || c == '"' || c == '`') {
    // The quote doubles as its own escape: 'it''s'.
    ++pos_;
    while (pos_ < n) {
      if (sql_[pos_] == c) {
        if (peek(1) == c) {
          pos_ += 2;
          continue;
        }
        ++pos_;
        break;
      }
      ++pos_;
    }
    return make(c == '\'' ? SqlTokenType::kString : SqlTokenType::kQuotedName);
  }
  if (c == '[') {
    const size_t end = sql_.find(']', pos_ + 1);
    pos_ = end == std::string_view::npos ? n : end + 1;
    return make(SqlTokenType::kQuotedName);
  }
  if ((c == '$' || c == ':' || c == '@') && IsWordStart(peek(1))) {
    ++pos_;
    while (pos_ < n && IsWordChar(sql_[pos_])) ++pos_;
    return make(SqlTokenType::kVariable);
  }
  if (c == '?') {
    ++pos_;
    while (pos_ < n && std::isdigit(static_cast<unsigned char>(sql_[pos_]))) ++pos_;
    return make(SqlTokenType::kVariable);
  }
  if (IsWordStart(c)) {
    while (pos_ < n && IsWordChar(sql_[pos_])) ++pos_;
    return make(SqlTokenType::kWord);
  }
  pos_ += (c == '!' && peek(1) == '=') ? 2 : 1;
  return make(SqlTokenType::kPunct);
}

SqlToken SqlTokenizer::NextSignificant() {
  SqlToken t;
  do {
    t = Next();
  } while (t.type == SqlTokenType::kSpace || t.type == SqlTokenType::kComment);
  return t;
}

std::vector<SqlStatementText> SplitSqlStatements(std::string_view sql) {
  std::vector<SqlStatementText> out;
  SqlTokenizer tok(sql);
  int line = 1;
  size_t start = std::string_view::npos;  // offset of the current statement's first token
  size_t end = 0;                         // end of its last significant token
  int start_line = 1;
  int significant = 0;  // tokens seen in the current statement
  bool create = false, temp = false, trigger = false;
  SqlToken prev1, prev2;  // the two previous significant tokens

  auto flush = [&]() {
    if (start != std::string_view::npos) {
      out.push_back({sql.substr(start, end - start), start_line});
    }
    start = std::string_view::npos;
    significant = 0;
    create = temp = trigger = false;
    prev1 = prev2 = SqlToken();
  };

  for (;;) {
    const SqlToken t = tok.Next();
    if (t.type == SqlTokenType::kEnd) break;
    const int token_line = line;
    line += static_cast<int>(std::count(t.text.begin(), t.text.end(), '\n'));
    if (!t.significant()) continue;
    if (t.type == SqlTokenType::kPunct && t.text == ";") {
      if (start == std::string_view::npos) continue;
      // Inside CREATE TRIGGER ... BEGIN ...; END; only the "; END ;" closes the statement.
      if (!trigger || (prev1.Is("END") && prev2.Is(";"))) {
        flush();
        continue;
      }
    }
    if (start == std::string_view::npos) {
      start = tok.OffsetOf(t);
      start_line = token_line;
    }
    end = tok.OffsetOf(t) + t.text.size();
    ++significant;
    if (significant == 1) create = t.Is("CREATE");
    if (significant == 2 && create) temp = t.Is("TEMP") || t.Is("TEMPORARY");
    if (create && (significant == 2 || (significant == 3 && temp)) && t.Is("TRIGGER")) {
      trigger = true;
    }
    prev2 = prev1;
    prev1 = t;
  }
  flush();
  return out;
}

std::string FirstLineOf(std::string_view statement, size_t max_chars) {
  SqlTokenizer tok(statement);
  const SqlToken first = tok.NextSignificant();
  if (first.type == SqlTokenType::kEnd) return "";
  std::string_view rest = statement.substr(tok.OffsetOf(first));
  rest = Trim(rest.substr(0, rest.find('\n')));
  if (rest.size() <= max_chars) return std::string(rest);
  return absl::StrCat(absl::string_view(rest.data(), max_chars), "...");
}

std::string WriteTargetOf(std::string_view statement) {
  SqlTokenizer tok(statement);
  SqlToken t = tok.NextSignificant();
  if (t.Is("WITH")) {
    // Skip the common table expressions: the verb is the first keyword at depth 0 after them.
    int depth = 0;
    for (t = tok.NextSignificant(); t.type != SqlTokenType::kEnd; t = tok.NextSignificant()) {
      if (t.Is("(")) ++depth;
      if (t.Is(")")) --depth;
      if (depth == 0 && (t.Is("INSERT") || t.Is("REPLACE") || t.Is("UPDATE") || t.Is("DELETE") ||
                         t.Is("SELECT") || t.Is("VALUES"))) {
        break;
      }
    }
  }
  if (t.Is("INSERT") || t.Is("UPDATE")) {
    const bool insert = t.Is("INSERT");
    t = tok.NextSignificant();
    if (t.Is("OR")) {
      tok.NextSignificant();  // ROLLBACK | ABORT | REPLACE | FAIL | IGNORE
      t = tok.NextSignificant();
    }
    if (insert) {
      if (!t.Is("INTO")) return "";
      t = tok.NextSignificant();
    }
  } else if (t.Is("REPLACE")) {
    if (!tok.NextSignificant().Is("INTO")) return "";
    t = tok.NextSignificant();
  } else if (t.Is("DELETE")) {
    if (!tok.NextSignificant().Is("FROM")) return "";
    t = tok.NextSignificant();
  } else if (t.Is("ALTER")) {
    if (!tok.NextSignificant().Is("TABLE")) return "";
    t = tok.NextSignificant();
  } else {
    return "";
  }
  if (t.type != SqlTokenType::kWord && t.type != SqlTokenType::kQuotedName) return "";
  SqlTokenizer after = tok;
  if (after.NextSignificant().Is(".")) {  // schema.table
    const SqlToken table = after.NextSignificant();
    if (table.type == SqlTokenType::kWord || table.type == SqlTokenType::kQuotedName) {
      return Unquote(table);
    }
  }
  return Unquote(t);
}

// ---------------------------------------------------------------------------------------------
// Statements

namespace {

// Significant tokens of one statement with random access, for the small recursive-descent
// parser of the Perfetto statements.
class TokenCursor {
 public:
  explicit TokenCursor(std::string_view sql) : sql_(sql) {
    SqlTokenizer tok(sql);
    for (SqlToken t = tok.NextSignificant(); t.type != SqlTokenType::kEnd;
         t = tok.NextSignificant()) {
      tokens_.push_back(t);
    }
  }
  const SqlToken& Peek(size_t ahead = 0) const {
    static const SqlToken kEnd;
    return pos_ + ahead < tokens_.size() ? tokens_[pos_ + ahead] : kEnd;
  }
  SqlToken Take() { return pos_ < tokens_.size() ? tokens_[pos_++] : SqlToken(); }
  bool TakeIf(std::string_view word) {
    if (!Peek().Is(word)) return false;
    ++pos_;
    return true;
  }
  bool AtEnd() const { return pos_ >= tokens_.size(); }
  // The statement's text from the current token to its end.
  std::string_view Rest() const {
    if (AtEnd()) return {};
    return Trim(sql_.substr(static_cast<size_t>(Peek().text.data() - sql_.data())));
  }

 private:
  std::string_view sql_;
  std::vector<SqlToken> tokens_;
  size_t pos_ = 0;
};

bool IsName(const SqlToken& t) {
  return t.type == SqlTokenType::kWord || t.type == SqlTokenType::kQuotedName;
}

// Type words trace_processor accepts for function arguments, returned columns and schemas.
bool IsKnownSqlType(std::string_view type) {
  const std::string base = Lower(type.substr(0, type.find('(')));
  static constexpr std::string_view kTypes[] = {
      "bool",   "boolean",  "long",   "int",   "uint",   "timestamp", "duration", "id",
      "joinid", "argsetid", "double", "float", "string", "bytes",     "proto",    "any"};
  return std::find(std::begin(kTypes), std::end(kTypes), base) != std::end(kTypes);
}

bool IsVariadicType(std::string_view type) {
  return type.size() > 3 && type.substr(type.size() - 3) == "...";
}

bool IsPlainName(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

// Reads type tokens until a ',' or ')' at depth 0 (not consumed), or a stop word at depth 0.
std::string ReadType(TokenCursor& c, std::string_view stop_word_1 = {},
                     std::string_view stop_word_2 = {}) {
  std::string type;
  int depth = 0;
  bool prev_word = false;
  while (!c.AtEnd()) {
    const SqlToken& t = c.Peek();
    if (depth == 0 && (t.Is(",") || t.Is(")"))) break;
    if (depth == 0 && ((!stop_word_1.empty() && t.Is(stop_word_1)) ||
                       (!stop_word_2.empty() && t.Is(stop_word_2)))) {
      break;
    }
    if (t.Is("(")) ++depth;
    if (t.Is(")")) --depth;
    const bool word = t.type == SqlTokenType::kWord;
    if (word && prev_word) type.push_back(' ');
    type.append(t.text);
    prev_word = word;
    c.Take();
  }
  return type;
}

// Parses `name TYPE, ...)` after an opening '(' (consumed), through the closing ')'.
absl::StatusOr<std::vector<SqlArgDef>> ParseDefList(TokenCursor& c, std::string_view what,
                                                    bool check_types) {
  std::vector<SqlArgDef> defs;
  if (c.TakeIf(")")) return defs;
  for (;;) {
    const SqlToken name = c.Take();
    if (!IsName(name)) {
      return Invalid("expected a name in the ", what, " list, got '", name.text, "'");
    }
    SqlArgDef def{Unquote(name), ReadType(c)};
    if (def.type.empty()) return Invalid("'", def.name, "' has no type in the ", what);
    // `TYPE...` makes a function variadic; ParseFunction checks it is the last argument.
    const bool variadic = what == "argument" && IsVariadicType(def.type);
    const std::string_view type =
        variadic ? std::string_view(def.type).substr(0, def.type.size() - 3) : def.type;
    if (check_types && !IsKnownSqlType(type)) {
      return Invalid("unknown type '", def.type, "' of '", def.name, "' in the ", what);
    }
    defs.push_back(std::move(def));
    const SqlToken sep = c.Take();
    if (sep.Is(")")) return defs;
    if (!sep.Is(",")) return Invalid("expected ',' or ')' in the ", what, " list");
  }
}

absl::StatusOr<PerfettoStatement> ParseInclude(TokenCursor& c) {
  if (!c.TakeIf("PERFETTO") || !c.TakeIf("MODULE")) {
    return Invalid("expected INCLUDE PERFETTO MODULE <name>");
  }
  PerfettoStatement st;
  st.kind = PerfettoStatement::Kind::kInclude;
  while (!c.AtEnd()) {
    const SqlToken t = c.Take();
    if (t.type != SqlTokenType::kWord && !t.Is(".") && !t.Is("*")) {
      return Invalid("unexpected '", t.text, "' in a module name");
    }
    st.name.append(t.text);
  }
  if (st.name.empty()) return Invalid("INCLUDE PERFETTO MODULE needs a module name");
  return st;
}

absl::StatusOr<PerfettoStatement> ParseTableOrView(TokenCursor& c, PerfettoStatement st,
                                                   std::string_view name_text) {
  const bool table = st.kind == PerfettoStatement::Kind::kCreateTable;
  const std::string_view what = table ? "table schema" : "view schema";
  if (c.TakeIf("(")) {
    ASSIGN_OR_RETURN(st.columns, ParseDefList(c, what, /*check_types=*/true));
  }
  if (!c.TakeIf("AS")) {
    return Invalid("expected AS after CREATE PERFETTO ", table ? "TABLE " : "VIEW ", st.name);
  }
  st.body = std::string(c.Rest());
  if (st.body.empty()) {
    return Invalid("CREATE PERFETTO ", table ? "TABLE " : "VIEW ", st.name, " has no SELECT");
  }
  const std::string name(name_text);
  st.sql = absl::StrCat(table ? "CREATE TABLE " : "CREATE VIEW ", name, " AS ", st.body);
  if (st.or_replace) {
    st.drop_sql = absl::StrCat(table ? "DROP TABLE IF EXISTS " : "DROP VIEW IF EXISTS ", name);
  }
  return st;
}

absl::StatusOr<PerfettoStatement> ParseFunction(TokenCursor& c, PerfettoStatement st) {
  if (!c.TakeIf("(")) return Invalid("expected '(' after CREATE PERFETTO FUNCTION ", st.name);
  ASSIGN_OR_RETURN(st.args, ParseDefList(c, "argument", /*check_types=*/true));
  for (size_t i = 0; i < st.args.size(); ++i) {
    const SqlArgDef& a = st.args[i];
    if (!IsPlainName(a.name)) return Invalid("argument name '", a.name, "' is not alphanumeric");
    if (IsVariadicType(a.type)) {
      if (i + 1 != st.args.size()) {
        return Invalid("only the last argument of function ", st.name, " may be variadic");
      }
      st.variadic = true;
    }
  }
  if (!c.TakeIf("RETURNS")) {
    return Invalid("expected RETURNS in CREATE PERFETTO FUNCTION ", st.name);
  }
  if (c.Peek().Is("TABLE") && c.Peek(1).Is("(")) {
    c.Take();
    c.Take();
    st.returns_table = true;
    ASSIGN_OR_RETURN(st.columns, ParseDefList(c, "returned column", /*check_types=*/true));
    if (st.columns.empty()) {
      return Invalid("function ", st.name, " returns a table with no columns");
    }
  } else {
    st.return_type = ReadType(c, "AS", "DELEGATES");
    if (!IsKnownSqlType(st.return_type)) {
      return Invalid("unknown return type '", st.return_type, "' of function ", st.name);
    }
  }
  if (c.TakeIf("AS")) {
    // A body names its arguments ($x); a variable number of them has no names.
    if (st.variadic) {
      return Invalid("variadic function ", st.name, " must be DELEGATES TO another function");
    }
    st.body = std::string(c.Rest());
    if (st.body.empty()) return Invalid("function ", st.name, " has no body");
  } else if (c.TakeIf("DELEGATES")) {
    if (st.returns_table || !c.TakeIf("TO") || !IsName(c.Peek())) {
      return Invalid("expected DELEGATES TO <function> in function ", st.name);
    }
    st.delegate = Unquote(c.Take());
    if (!c.AtEnd()) return Invalid("unexpected text after DELEGATES TO ", st.delegate);
  } else {
    return Invalid("expected AS or DELEGATES TO in CREATE PERFETTO FUNCTION ", st.name);
  }
  return st;
}

absl::StatusOr<PerfettoStatement> ParseMacro(TokenCursor& c, PerfettoStatement st) {
  if (!c.TakeIf("(")) return Invalid("expected '(' after CREATE PERFETTO MACRO ", st.name);
  ASSIGN_OR_RETURN(st.args, ParseDefList(c, "macro argument", /*check_types=*/false));
  for (const SqlArgDef& a : st.args) {
    if (!IsPlainName(a.name)) {
      return Invalid("macro argument name '", a.name, "' is not alphanumeric");
    }
  }
  if (!c.TakeIf("RETURNS")) return Invalid("expected RETURNS in CREATE PERFETTO MACRO ", st.name);
  st.return_type = ReadType(c, "AS");
  if (st.return_type.empty()) return Invalid("macro ", st.name, " has no return type");
  if (!c.TakeIf("AS")) return Invalid("expected AS in CREATE PERFETTO MACRO ", st.name);
  st.body = std::string(c.Rest());
  return st;
}

}  // namespace

absl::StatusOr<PerfettoStatement> ParsePerfettoStatement(std::string_view sql) {
  TokenCursor c(sql);
  PerfettoStatement st;
  if (c.TakeIf("INCLUDE")) return ParseInclude(c);

  if (c.Peek().Is("DROP") && c.Peek(1).Is("PERFETTO")) {
    c.Take();
    c.Take();
    if (!c.TakeIf("INDEX") || !IsName(c.Peek())) {
      return Invalid("expected DROP PERFETTO INDEX <name> ON <table>");
    }
    const SqlToken name = c.Take();
    if (!c.TakeIf("ON") || !IsName(c.Take()) || !c.AtEnd()) {
      return Invalid("expected DROP PERFETTO INDEX <name> ON <table>");
    }
    st.kind = PerfettoStatement::Kind::kDropIndex;
    st.name = Unquote(name);
    st.sql = absl::StrCat("DROP INDEX ", absl::string_view(name.text.data(), name.text.size()));
    return st;
  }

  const bool create = c.Peek().Is("CREATE");
  size_t k = 1;
  if (create && c.Peek(1).Is("OR") && c.Peek(2).Is("REPLACE")) k = 3;
  if (!create || !c.Peek(k).Is("PERFETTO")) {
    st.sql = std::string(sql);
    return st;
  }
  st.or_replace = k == 3;
  for (size_t i = 0; i <= k; ++i) c.Take();
  const SqlToken what = c.Take();
  const SqlToken name = c.Take();
  if (!IsName(name)) return Invalid("expected a name after CREATE PERFETTO ", what.text);
  st.name = Unquote(name);
  const std::string_view name_text = name.text;

  if (what.Is("TABLE") || what.Is("VIEW")) {
    st.kind = what.Is("TABLE") ? PerfettoStatement::Kind::kCreateTable
                               : PerfettoStatement::Kind::kCreateView;
    return ParseTableOrView(c, std::move(st), name_text);
  }
  if (what.Is("INDEX")) {
    st.kind = PerfettoStatement::Kind::kCreateIndex;
    if (!c.TakeIf("ON") || c.AtEnd()) {
      return Invalid("expected ON <table>(<columns>) in CREATE PERFETTO INDEX ", st.name);
    }
    st.sql = absl::StrCat("CREATE INDEX ", absl::string_view(name_text.data(), name_text.size()),
                          " ON ", std::string(c.Rest()));
    if (st.or_replace) {
      st.drop_sql = absl::StrCat("DROP INDEX IF EXISTS ",
                                 absl::string_view(name_text.data(), name_text.size()));
    }
    return st;
  }
  if (what.Is("FUNCTION")) {
    st.kind = PerfettoStatement::Kind::kCreateFunction;
    return ParseFunction(c, std::move(st));
  }
  if (what.Is("MACRO")) {
    st.kind = PerfettoStatement::Kind::kCreateMacro;
    return ParseMacro(c, std::move(st));
  }
  return Invalid("unknown statement CREATE PERFETTO ", what.text);
}

absl::Status CheckDeclaredColumns(std::string_view object, const std::vector<SqlArgDef>& declared,
                                  const std::vector<std::string>& actual) {
  std::vector<std::string> duplicates, missing_from_query, missing_from_schema;
  for (size_t i = 0; i < actual.size(); ++i) {
    for (size_t j = i + 1; j < actual.size(); ++j) {
      if (EqualsIgnoreCase(actual[i], actual[j])) duplicates.push_back(actual[i]);
    }
  }
  if (!duplicates.empty()) {
    return Invalid(object, ": multiple columns are named ", absl::StrJoin(duplicates, ", "));
  }
  if (declared.empty()) return absl::OkStatus();
  for (const std::string& name : actual) {
    if (std::none_of(declared.begin(), declared.end(),
                     [&](const SqlArgDef& d) { return EqualsIgnoreCase(d.name, name); })) {
      missing_from_schema.push_back(name);
    }
  }
  for (const SqlArgDef& d : declared) {
    if (std::none_of(actual.begin(), actual.end(),
                     [&](const std::string& name) { return EqualsIgnoreCase(d.name, name); })) {
      missing_from_query.push_back(d.name);
    }
  }
  std::string problems;
  if (!missing_from_query.empty()) {
    absl::StrAppend(&problems, "declared but not produced by the SELECT: ",
                    absl::StrJoin(missing_from_query, ", "));
  }
  if (!missing_from_schema.empty()) {
    absl::StrAppend(
        &problems, problems.empty() ? "" : "; ",
        "produced by the SELECT but not declared: ", absl::StrJoin(missing_from_schema, ", "));
  }
  if (problems.empty()) return absl::OkStatus();
  return Invalid(object, ": columns do not match the schema (", problems, ")");
}

// ---------------------------------------------------------------------------------------------
// Macros

namespace {

constexpr int kMaxMacroDepth = 64;

// Reads the arguments of a macro call after its '(' (consumed) through the closing ')'. Splits at
// top-level commas; comments are dropped so an argument never comments out what follows it.
absl::StatusOr<std::vector<std::string>> ReadCallArgs(SqlTokenizer& tok, std::string_view name) {
  std::vector<std::string> args;
  std::string current;
  int depth = 0;
  for (;;) {
    const SqlToken t = tok.Next();
    if (t.type == SqlTokenType::kEnd) return Invalid("unterminated call of macro ", name, "!");
    if (t.type == SqlTokenType::kComment) {
      current.push_back(' ');
      continue;
    }
    if (t.type == SqlTokenType::kPunct) {
      if (t.text == "(") ++depth;
      if (t.text == ")") {
        if (depth == 0) {
          const std::string_view last = Trim(current);
          if (!args.empty() || !last.empty()) args.emplace_back(last);
          return args;
        }
        --depth;
      }
      if (t.text == "," && depth == 0) {
        args.emplace_back(Trim(current));
        current.clear();
        continue;
      }
    }
    current.append(t.text);
  }
}

// Splits "(a, b, (c, d))" into {"a", "b", "(c, d)"}; false if it is not one parenthesised list.
bool SplitParenList(std::string_view text, std::vector<std::string>* out) {
  out->clear();
  SqlTokenizer tok(text);
  if (!tok.NextSignificant().Is("(")) return false;
  auto args = ReadCallArgs(tok, "list");
  if (!args.ok()) return false;
  if (tok.NextSignificant().type != SqlTokenType::kEnd) return false;
  *out = std::move(*args);
  return std::none_of(out->begin(), out->end(), [](const std::string& s) { return s.empty(); });
}

// __intrinsic_interval_intersect!((tables), (partitions)) and
// __intrinsic_interval_intersect_named!(t, id, ts, dur, t, id, ts, dur, ..., (partitions)):
// the stdlib's interval intersection (interval_intersect_sql.h builds the SQL).
absl::StatusOr<std::string> ExpandIntervalIntersect(std::string_view lname,
                                                    const std::vector<std::string>& args) {
  std::vector<IntervalSource> sources;
  std::vector<std::string> partitions;
  if (lname == "__intrinsic_interval_intersect") {
    std::vector<std::string> tables;
    if (args.size() != 2 || !SplitParenList(args[0], &tables) ||
        !SplitParenList(args[1], &partitions)) {
      return Invalid(lname, "! expects ((table, ...), (partition column, ...))");
    }
    for (std::string& t : tables) sources.push_back({std::move(t)});
  } else {
    if (args.size() < 9 || args.size() % 4 != 1 || !SplitParenList(args.back(), &partitions)) {
      return Invalid(lname,
                     "! expects (table, id, ts, dur, table, id, ts, dur, ..., (partition column, ...))");
    }
    for (size_t i = 0; i + 1 < args.size(); i += 4) {
      sources.push_back({args[i], args[i + 1], args[i + 2], args[i + 3]});
    }
  }
  return IntervalIntersectSql(sources, partitions);
}

}  // namespace

absl::Status MacroRegistry::Define(const PerfettoStatement& macro, bool trusted) {
  const std::string key = Lower(macro.name);
  auto it = macros_.find(key);
  if (it != macros_.end()) {
    if (it->second.trusted && !trusted) {
      return absl::PermissionDeniedError(absl::StrCat(
          "macro '", macro.name, "' is part of the standard library and cannot be redefined"));
    }
    if (!macro.or_replace) return Invalid("macro '", macro.name, "' already exists");
  }
  Macro m;
  for (const SqlArgDef& a : macro.args) m.args.push_back(Lower(a.name));
  m.body = macro.body;
  m.trusted = trusted;
  macros_[key] = std::move(m);
  return absl::OkStatus();
}

absl::StatusOr<std::string> MacroRegistry::Expand(std::string_view sql) const {
  if (sql.find('!') == std::string_view::npos) return std::string(sql);  // the common case
  return ExpandAt(sql, 0);
}

absl::StatusOr<std::string> MacroRegistry::ExpandAt(std::string_view sql, int depth) const {
  if (depth > kMaxMacroDepth) {
    return Invalid("macro expansion nested too deeply (recursive macro?)");
  }
  std::string out;
  size_t copied = 0;
  SqlTokenizer tok(sql);
  for (;;) {
    const SqlToken t = tok.Next();
    if (t.type == SqlTokenType::kEnd) break;
    if (t.type != SqlTokenType::kWord) continue;
    // A call is `name!(`: the '!' right after the name, then '(' (spaces allowed before it).
    SqlTokenizer look = tok;
    const SqlToken bang = look.Next();
    if (bang.type != SqlTokenType::kPunct || bang.text != "!") continue;
    if (!look.NextSignificant().Is("(")) continue;
    ASSIGN_OR_RETURN(std::vector<std::string> args, ReadCallArgs(look, t.text));
    ASSIGN_OR_RETURN(std::string expansion, ExpandCall(t.text, args, depth));
    out.append(sql.substr(copied, tok.OffsetOf(t) - copied));
    out.append(expansion);
    copied = look.offset();
    tok = look;
  }
  out.append(sql.substr(copied));
  return out;
}

absl::StatusOr<std::string> MacroRegistry::ExpandCall(std::string_view name,
                                                      const std::vector<std::string>& args,
                                                      int depth) const {
  const std::string lname = Lower(name);
  std::string body;

  if (lname == "__intrinsic_stringify" || lname == "__intrinsic_stringify_ignore_table") {
    // The argument's text as a string literal, as trace_processor writes it (no escaping).
    if (args.size() != 1) return Invalid(name, "! takes exactly one argument");
    return absl::StrCat("'", args[0], "'");
  }
  struct Apply {
    std::string_view name, joiner;
    bool prefix;
  };
  static constexpr Apply kApplies[] = {
      {"__intrinsic_token_apply", ", ", false},
      {"__intrinsic_token_apply_prefix", ", ", true},
      {"__intrinsic_token_apply_and", " AND ", false},
      {"__intrinsic_token_apply_and_prefix", " AND ", true},
  };
  for (const Apply& a : kApplies) {
    if (lname != a.name) continue;
    // apply!(m, (x1, x2)) -> m!(x1), m!(x2); apply!(m, (x1, x2), (y1, y2)) -> m!(x1, y1), ...
    std::vector<std::string> xs, ys;
    if ((args.size() != 2 && args.size() != 3) || !SplitParenList(args[1], &xs) ||
        (args.size() == 3 && !SplitParenList(args[2], &ys))) {
      return Invalid(name, "! expects (macro, (list)[, (list)])");
    }
    const size_t n = args.size() == 3 ? std::min(xs.size(), ys.size()) : xs.size();
    for (size_t i = 0; i < n; ++i) {
      if (i > 0 || a.prefix) body.append(a.joiner);
      absl::StrAppend(&body, args[0], "!(", xs[i]);
      if (args.size() == 3) absl::StrAppend(&body, ", ", ys[i]);
      body.push_back(')');
    }
    return ExpandAt(body, depth + 1);
  }

  if (lname == "__intrinsic_interval_intersect" ||
      lname == "__intrinsic_interval_intersect_named") {
    ASSIGN_OR_RETURN(const std::string sql, ExpandIntervalIntersect(lname, args));
    return ExpandAt(sql, depth + 1);
  }

  auto it = macros_.find(lname);
  if (it == macros_.end()) return Invalid("unknown macro '", name, "!'");
  const Macro& m = it->second;
  if (args.size() != m.args.size()) {
    return Invalid("macro ", name, "! expects ", m.args.size(), " arguments but got ", args.size());
  }
  // Substitute $arg variables token by token, so '$x' inside strings stays untouched.
  SqlTokenizer tok(m.body);
  for (SqlToken t = tok.Next(); t.type != SqlTokenType::kEnd; t = tok.Next()) {
    if (t.type == SqlTokenType::kVariable && t.text.front() == '$') {
      const std::string var = Lower(t.text.substr(1));
      auto arg = std::find(m.args.begin(), m.args.end(), var);
      if (arg != m.args.end()) {
        body.append(args[static_cast<size_t>(arg - m.args.begin())]);
        continue;
      }
    }
    body.append(t.text);
  }
  return ExpandAt(body, depth + 1);
}

// ---------------------------------------------------------------------------------------------
// Functions defined in SQL

struct PerfettoFunctions::Function {
  sqlite3* db = nullptr;
  std::string name;
  std::vector<std::string> args;     // lower-case, without '$'
  std::vector<std::string> columns;  // table functions: returned columns
  bool is_table = false;
  std::string body;
  // (parameter index, argument index) of every `$arg` in the body.
  std::vector<std::pair<int, int>> bindings;
  // The prepared body, kept between calls; a second statement is prepared only when a call
  // nests inside another of the same function (recursion).
  sqlite3_stmt* cached = nullptr;
  bool cached_in_use = false;
  // Variadic (`args ANY...`, DELEGATES TO only): calls forward all their values to `delegate`.
  bool variadic = false;
  std::string delegate;
  // EXPERIMENTAL_MEMOIZE: results by integer argument (one-argument functions; NULL results
  // are not kept), so a recursive definition computes each value once.
  bool memoize = false;
  absl::flat_hash_map<int64_t, sqlite3_value*> memo;

  ~Function() {
    for (auto& [arg, value] : memo) sqlite3_value_free(value);
  }
};

namespace {

using Function = PerfettoFunctions::Function;

// A prepared body for one call, returned to the cache (or finalized) on destruction.
class BodyLease {
 public:
  explicit BodyLease(Function* fn) : fn_(fn) {
    if (fn->cached && !fn->cached_in_use) {
      stmt_ = fn->cached;
      fn->cached_in_use = true;
      return;
    }
    rc_ = sqlite3_prepare_v3(fn->db, fn->body.data(), static_cast<int>(fn->body.size()),
                             SQLITE_PREPARE_PERSISTENT, &stmt_, nullptr);
    if (rc_ == SQLITE_OK && !fn->cached) {
      fn->cached = stmt_;
      fn->cached_in_use = true;
    }
  }
  ~BodyLease() {
    if (!stmt_) return;
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
    if (stmt_ == fn_->cached) {
      fn_->cached_in_use = false;
    } else {
      sqlite3_finalize(stmt_);
    }
  }
  BodyLease(const BodyLease&) = delete;
  BodyLease& operator=(const BodyLease&) = delete;

  bool ok() const { return rc_ == SQLITE_OK && stmt_ != nullptr; }
  int rc() const { return rc_ == SQLITE_OK ? SQLITE_ERROR : rc_; }
  sqlite3_stmt* stmt() const { return stmt_; }

  // Binds the call's argument values (null pointers bind NULL).
  void Bind(sqlite3_value* const* values) {
    for (const auto& [param, arg] : fn_->bindings) {
      if (values[arg]) sqlite3_bind_value(stmt_, param, values[arg]);
    }
  }

 private:
  Function* fn_;
  sqlite3_stmt* stmt_ = nullptr;
  int rc_ = SQLITE_OK;
};

std::string ErrorText(const Function* fn) {
  return absl::StrCat(fn->name, ": ", sqlite3_errmsg(fn->db));
}

// Calls of PERFETTO functions nest on this thread's stack (a body's statement runs inside the
// caller's step). A function that calls itself without end would overflow the stack and take
// the whole process down: past this depth the call fails instead (hostile input, issue #16).
constexpr int kMaxCallDepth = 100;
thread_local int call_depth = 0;

class CallDepthGuard {
 public:
  CallDepthGuard() { ++call_depth; }
  ~CallDepthGuard() { --call_depth; }
  CallDepthGuard(const CallDepthGuard&) = delete;
  CallDepthGuard& operator=(const CallDepthGuard&) = delete;
  bool too_deep() const { return call_depth > kMaxCallDepth; }
};

std::string TooDeepText(const Function* fn) {
  return absl::StrCat(fn->name, ": PERFETTO functions nested more than ", kMaxCallDepth,
                      " calls deep (runaway recursion?)");
}

// A variadic function's call: its delegate called with all the call's values.
void VariadicDelegateCall(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  auto* fn = static_cast<Function*>(sqlite3_user_data(ctx));
  std::vector<std::string> params;
  for (int i = 1; i <= argc; ++i) params.push_back(absl::StrCat("?", i));
  const std::string sql = absl::StrCat("SELECT ", fn->delegate, "(", absl::StrJoin(params, ", "), ")");
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(fn->db, sql.c_str(), -1, &stmt, nullptr);
  if (rc == SQLITE_OK) {
    for (int i = 0; i < argc; ++i) sqlite3_bind_value(stmt, i + 1, argv[i]);
    rc = sqlite3_step(stmt);
  }
  if (rc == SQLITE_ROW) {
    sqlite3_result_value(ctx, sqlite3_column_value(stmt, 0));
  } else if (rc == SQLITE_DONE) {
    sqlite3_result_null(ctx);
  } else {
    sqlite3_result_error(ctx, ErrorText(fn).c_str(), -1);
    sqlite3_result_error_code(ctx, rc);
  }
  sqlite3_finalize(stmt);
}

void ScalarCall(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  auto* fn = static_cast<Function*>(sqlite3_user_data(ctx));
  std::optional<int64_t> memo_key;
  if (fn->memoize && argc == 1 && sqlite3_value_type(argv[0]) == SQLITE_INTEGER) {
    memo_key = sqlite3_value_int64(argv[0]);
    if (auto it = fn->memo.find(*memo_key); it != fn->memo.end()) {
      sqlite3_result_value(ctx, it->second);
      return;
    }
  }
  CallDepthGuard depth;
  if (depth.too_deep()) {
    sqlite3_result_error(ctx, TooDeepText(fn).c_str(), -1);
    return;
  }
  BodyLease lease(fn);
  if (!lease.ok()) {
    sqlite3_result_error(ctx, ErrorText(fn).c_str(), -1);
    sqlite3_result_error_code(ctx, lease.rc());
    return;
  }
  lease.Bind(argv);
  const int rc = sqlite3_step(lease.stmt());
  if (rc == SQLITE_ROW) {
    sqlite3_value* value = sqlite3_column_value(lease.stmt(), 0);
    if (memo_key && sqlite3_value_type(value) != SQLITE_NULL) {
      if (sqlite3_value* copy = sqlite3_value_dup(value)) fn->memo.emplace(*memo_key, copy);
    }
    sqlite3_result_value(ctx, value);  // copies the value
  } else if (rc == SQLITE_DONE) {
    sqlite3_result_null(ctx);
  } else {
    // Keep the code: an interrupt (deadline, cancellation) must stay an interrupt outside.
    sqlite3_result_error(ctx, ErrorText(fn).c_str(), -1);
    sqlite3_result_error_code(ctx, rc);
  }
}

// Table functions: an eponymous virtual table whose columns are the returned columns followed by
// one HIDDEN column per argument, so `fn(a, b)` binds the arguments as equality constraints.
struct TableFnVtab : sqlite3_vtab {
  Function* fn;
};

struct TableFnCursor : sqlite3_vtab_cursor {
  std::vector<sqlite3_value*> cells;  // rows * columns, row-major, owned
  std::vector<sqlite3_value*> args;   // this scan's argument values, owned (null: absent)
  size_t row = 0;
  size_t rows = 0;
  void Clear() {
    for (sqlite3_value* v : cells) sqlite3_value_free(v);
    for (sqlite3_value* v : args) sqlite3_value_free(v);
    cells.clear();
    args.clear();
    row = rows = 0;
  }
};

Function* FnOf(sqlite3_vtab_cursor* cur) { return static_cast<TableFnVtab*>(cur->pVtab)->fn; }

std::string QuoteName(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

int TableFnConnect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char**) {
  auto* fn = static_cast<Function*>(aux);
  std::string schema = "CREATE TABLE x(";
  for (size_t i = 0; i < fn->columns.size(); ++i) {
    absl::StrAppend(&schema, i ? ", " : "", QuoteName(fn->columns[i]));
  }
  for (const std::string& a : fn->args)
    absl::StrAppend(&schema, ", ", QuoteName("__arg_" + a), " HIDDEN");
  schema += ")";
  const int rc = sqlite3_declare_vtab(db, schema.c_str());
  if (rc != SQLITE_OK) return rc;
  auto* vtab = new TableFnVtab();
  vtab->fn = fn;
  *out = vtab;
  return SQLITE_OK;
}

int TableFnDisconnect(sqlite3_vtab* v) {
  delete static_cast<TableFnVtab*>(v);
  return SQLITE_OK;
}

int TableFnBestIndex(sqlite3_vtab* v, sqlite3_index_info* info) {
  const Function* fn = static_cast<TableFnVtab*>(v)->fn;
  const int ncols = static_cast<int>(fn->columns.size());
  const int nargs = static_cast<int>(fn->args.size());
  std::vector<int> usable(static_cast<size_t>(nargs), -1);
  std::vector<bool> unusable(static_cast<size_t>(nargs), false);
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& c = info->aConstraint[i];
    const int a = c.iColumn - ncols;
    if (a < 0 || a >= nargs || c.op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
    if (c.usable) {
      usable[static_cast<size_t>(a)] = i;
    } else {
      unusable[static_cast<size_t>(a)] = true;
    }
  }
  int mask = 0;
  int next_arg = 0;
  for (int a = 0; a < nargs; ++a) {
    const int c = usable[static_cast<size_t>(a)];
    if (c < 0) {
      // An argument given in the call but not available yet: ask SQLite for another join order.
      if (unusable[static_cast<size_t>(a)]) return SQLITE_CONSTRAINT;
      continue;  // never given: binds NULL
    }
    info->aConstraintUsage[c].argvIndex = ++next_arg;
    info->aConstraintUsage[c].omit = 1;
    mask |= 1 << a;
  }
  info->idxNum = mask;
  info->estimatedCost = 1000;
  info->estimatedRows = 1000;
  return SQLITE_OK;
}

int TableFnOpen(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  *out = new TableFnCursor();
  return SQLITE_OK;
}

int TableFnClose(sqlite3_vtab_cursor* cur) {
  auto* c = static_cast<TableFnCursor*>(cur);
  c->Clear();
  delete c;
  return SQLITE_OK;
}

// Runs the body with this scan's arguments and buffers every row: the statement is released
// before the first row is returned, so nested and repeated scans never share it.
int TableFnFilter(sqlite3_vtab_cursor* cur, int idx_num, const char*, int argc,
                  sqlite3_value** argv) {
  auto* c = static_cast<TableFnCursor*>(cur);
  Function* fn = FnOf(cur);
  c->Clear();
  int next = 0;
  for (size_t a = 0; a < fn->args.size(); ++a) {
    const bool given = (idx_num >> a) & 1;
    c->args.push_back(given && next < argc ? sqlite3_value_dup(argv[next++]) : nullptr);
  }
  CallDepthGuard depth;
  if (depth.too_deep()) {
    sqlite3_free(cur->pVtab->zErrMsg);
    cur->pVtab->zErrMsg = sqlite3_mprintf("%s", TooDeepText(fn).c_str());
    c->Clear();
    return SQLITE_ERROR;
  }
  BodyLease lease(fn);
  auto fail = [&](int rc) {
    sqlite3_free(cur->pVtab->zErrMsg);
    cur->pVtab->zErrMsg = sqlite3_mprintf("%s", ErrorText(fn).c_str());
    c->Clear();
    return rc;
  };
  if (!lease.ok()) return fail(lease.rc());
  lease.Bind(c->args.data());
  const int ncols = static_cast<int>(fn->columns.size());
  for (;;) {
    const int rc = sqlite3_step(lease.stmt());
    if (rc == SQLITE_DONE) break;
    if (rc != SQLITE_ROW) return fail(rc);
    for (int i = 0; i < ncols; ++i) {
      c->cells.push_back(sqlite3_value_dup(sqlite3_column_value(lease.stmt(), i)));
    }
    ++c->rows;
  }
  return SQLITE_OK;
}

int TableFnNext(sqlite3_vtab_cursor* cur) {
  ++static_cast<TableFnCursor*>(cur)->row;
  return SQLITE_OK;
}

int TableFnEof(sqlite3_vtab_cursor* cur) {
  auto* c = static_cast<TableFnCursor*>(cur);
  return c->row >= c->rows;
}

int TableFnColumn(sqlite3_vtab_cursor* cur, sqlite3_context* ctx, int i) {
  auto* c = static_cast<TableFnCursor*>(cur);
  const size_t ncols = FnOf(cur)->columns.size();
  const auto col = static_cast<size_t>(i);
  sqlite3_value* v = col < ncols ? c->cells[c->row * ncols + col] : c->args[col - ncols];
  if (v) {
    sqlite3_result_value(ctx, v);
  } else {
    sqlite3_result_null(ctx);
  }
  return SQLITE_OK;
}

int TableFnRowid(sqlite3_vtab_cursor* cur, sqlite3_int64* out) {
  *out = static_cast<sqlite3_int64>(static_cast<TableFnCursor*>(cur)->row);
  return SQLITE_OK;
}

sqlite3_module MakeTableFnModule() {
  sqlite3_module m;
  std::memset(&m, 0, sizeof(m));
  m.iVersion = 2;
  m.xCreate = nullptr;  // eponymous only
  m.xConnect = TableFnConnect;
  m.xBestIndex = TableFnBestIndex;
  m.xDisconnect = TableFnDisconnect;
  m.xDestroy = TableFnDisconnect;
  m.xOpen = TableFnOpen;
  m.xClose = TableFnClose;
  m.xFilter = TableFnFilter;
  m.xNext = TableFnNext;
  m.xEof = TableFnEof;
  m.xColumn = TableFnColumn;
  m.xRowid = TableFnRowid;
  return m;
}

const sqlite3_module kTableFnModule = MakeTableFnModule();

// Prepares `fn`'s body, checks it and records where each `$arg` binds. The statement becomes the
// function's cached one.
absl::Status PrepareBody(Function* fn) {
  sqlite3_stmt* stmt = nullptr;
  const char* tail = nullptr;
  const int rc = sqlite3_prepare_v3(fn->db, fn->body.data(), static_cast<int>(fn->body.size()),
                                    SQLITE_PREPARE_PERSISTENT, &stmt, &tail);
  if (rc != SQLITE_OK) return Invalid("function ", fn->name, ": ", sqlite3_errmsg(fn->db));
  auto fail = [&](absl::Status s) {
    sqlite3_finalize(stmt);
    return s;
  };
  if (!stmt) return Invalid("function ", fn->name, " has an empty body");
  const std::string_view rest(tail, static_cast<size_t>(fn->body.data() + fn->body.size() - tail));
  if (SqlTokenizer(rest).NextSignificant().type != SqlTokenType::kEnd) {
    return fail(Invalid("function ", fn->name, ": the body must be a single statement"));
  }
  if (!sqlite3_stmt_readonly(stmt)) {
    return fail(Invalid("function ", fn->name, ": the body must be a SELECT"));
  }
  fn->bindings.clear();
  for (int p = 1; p <= sqlite3_bind_parameter_count(stmt); ++p) {
    const char* pname = sqlite3_bind_parameter_name(stmt, p);
    const std::string var = pname ? Lower(pname) : "?";
    auto it = var.size() > 1 && var[0] == '$'
                  ? std::find(fn->args.begin(), fn->args.end(), var.substr(1))
                  : fn->args.end();
    if (it == fn->args.end()) {
      return fail(Invalid("function ", fn->name, ": parameter ", pname ? pname : "?",
                          " is not one of its arguments"));
    }
    fn->bindings.emplace_back(p, static_cast<int>(it - fn->args.begin()));
  }
  const int ncols = sqlite3_column_count(stmt);
  if (fn->is_table) {
    if (static_cast<size_t>(ncols) != fn->columns.size()) {
      return fail(Invalid("function ", fn->name, ": declares ", fn->columns.size(),
                          " returned columns but its SELECT produces ", ncols));
    }
    for (int i = 0; i < ncols; ++i) {
      const char* got = sqlite3_column_name(stmt, i);
      if (!got || !EqualsIgnoreCase(got, fn->columns[static_cast<size_t>(i)])) {
        return fail(Invalid("function ", fn->name, ": column ", i, " of its SELECT is '",
                            got ? got : "", "' but the declared column is '",
                            fn->columns[static_cast<size_t>(i)], "'"));
      }
    }
  } else if (ncols != 1) {
    return fail(Invalid("function ", fn->name,
                        ": a scalar function's SELECT must produce one column, not ", ncols));
  }
  fn->cached = stmt;
  return absl::OkStatus();
}

}  // namespace

PerfettoFunctions::PerfettoFunctions(sqlite3* db) : db_(db) {}

PerfettoFunctions::~PerfettoFunctions() { FinalizeCachedStatements(); }

void PerfettoFunctions::Reserve(std::string_view name) { reserved_.insert(Lower(name)); }

void PerfettoFunctions::FinalizeCachedStatements() {
  for (auto& fn : all_) {
    if (fn->cached && !fn->cached_in_use) {
      sqlite3_finalize(fn->cached);
      fn->cached = nullptr;
    }
  }
}

absl::Status PerfettoFunctions::DefineScalar(Function* fn) {
  if (fn->variadic) {
    const int rc = sqlite3_create_function_v2(db_, fn->name.c_str(), -1, SQLITE_UTF8, fn,
                                              VariadicDelegateCall, nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK) {
      return Invalid("cannot define function ", fn->name, ": ", sqlite3_errmsg(db_));
    }
    return absl::OkStatus();
  }
  const int rc =
      sqlite3_create_function_v2(db_, fn->name.c_str(), static_cast<int>(fn->args.size()),
                                 SQLITE_UTF8, fn, ScalarCall, nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) {
    return Invalid("cannot define function ", fn->name, ": ", sqlite3_errmsg(db_));
  }
  // Validated after registration so a body may call its own function.
  return PrepareBody(fn);
}

absl::Status PerfettoFunctions::DefineTable(Function* fn) {
  const int rc = sqlite3_create_module_v2(db_, fn->name.c_str(), &kTableFnModule, fn, nullptr);
  if (rc != SQLITE_OK) {
    return Invalid("cannot define function ", fn->name, ": ", sqlite3_errmsg(db_));
  }
  return PrepareBody(fn);
}

absl::Status PerfettoFunctions::Define(const PerfettoStatement& st, bool trusted) {
  const std::string lname = Lower(st.name);
  if (!trusted && reserved_.contains(lname)) {
    return absl::PermissionDeniedError(
        absl::StrCat("function '", st.name, "' is built in and cannot be redefined"));
  }
  if (st.returns_table && st.args.size() > 30) {
    return Invalid("function ", st.name, " has too many arguments");
  }
  const std::string key = st.returns_table ? lname + "/table"
                         : st.variadic    ? lname + "/variadic"
                                          : absl::StrCat(lname, "/", st.args.size());
  auto existing = defined_.find(key);
  Function* previous = existing == defined_.end() ? nullptr : existing->second;
  if (previous && !st.or_replace) return Invalid("function '", st.name, "' already exists");

  auto owned = std::make_unique<Function>();
  Function* fn = owned.get();
  fn->db = db_;
  fn->name = st.name;
  for (const SqlArgDef& a : st.args) fn->args.push_back(Lower(a.name));
  for (const SqlArgDef& c : st.columns) fn->columns.push_back(c.name);
  fn->is_table = st.returns_table;
  fn->variadic = st.variadic;
  fn->delegate = st.delegate;
  if (st.delegate.empty()) {
    fn->body = st.body;
  } else {
    std::vector<std::string> params;
    for (const std::string& a : fn->args) params.push_back("$" + a);
    fn->body = absl::StrCat("SELECT ", st.delegate, "(", absl::StrJoin(params, ", "), ")");
  }
  all_.push_back(std::move(owned));

  // No cached statement may outlive the definition it was compiled against.
  FinalizeCachedStatements();
  absl::Status s = fn->is_table ? DefineTable(fn) : DefineScalar(fn);
  if (!s.ok()) {
    // Put back what was there before (or nothing).
    if (previous) {
      (void)(previous->is_table ? DefineTable(previous) : DefineScalar(previous));
    } else if (fn->is_table) {
      sqlite3_create_module_v2(db_, fn->name.c_str(), nullptr, nullptr, nullptr);
    } else {
      sqlite3_create_function_v2(db_, fn->name.c_str(),
                                 fn->variadic ? -1 : static_cast<int>(fn->args.size()),
                                 SQLITE_UTF8, nullptr, nullptr, nullptr, nullptr, nullptr);
    }
    return s;
  }
  defined_[key] = fn;
  if (trusted) reserved_.insert(lname);
  return absl::OkStatus();
}

absl::Status PerfettoFunctions::Memoize(std::string_view name) {
  auto it = defined_.find(absl::StrCat(Lower(name), "/1"));
  if (it == defined_.end() || it->second->is_table) {
    return Invalid("cannot memoize '", name,
                   "': only a scalar PERFETTO function of one argument can be memoized");
  }
  it->second->memoize = true;
  return absl::OkStatus();
}

}  // namespace tw
