#include "libs/trace/query/regexp_functions.h"

#include <regex.h>

#include <memory>
#include <string>

#include "absl/strings/str_cat.h"

namespace tw {
namespace {

struct CompiledRegex {
  regex_t re;
  bool compiled = false;
  ~CompiledRegex() {
    if (compiled) regfree(&re);
  }
};

void FreeCompiled(void* p) { delete static_cast<CompiledRegex*>(p); }

// The pattern in argv[pattern_arg] compiled with `cflags`: taken from the statement's cache on
// that argument, or compiled and, once the call is done with it, offered to the cache (SQLite
// keeps it while the argument stays the same, e.g. a constant pattern).
class Pattern {
 public:
  Pattern(sqlite3_context* ctx, sqlite3_value** argv, int pattern_arg, int cflags)
      : ctx_(ctx), slot_(pattern_arg + ((cflags & REG_ICASE) ? 8 : 0)) {
    if (auto* cached = static_cast<CompiledRegex*>(sqlite3_get_auxdata(ctx, slot_))) {
      re_ = &cached->re;
      return;
    }
    const char* pattern = reinterpret_cast<const char*>(sqlite3_value_text(argv[pattern_arg]));
    fresh_ = std::make_unique<CompiledRegex>();
    const int rc = regcomp(&fresh_->re, pattern ? pattern : "", cflags | REG_EXTENDED);
    if (rc != 0) {
      char why[256];
      regerror(rc, &fresh_->re, why, sizeof(why));
      fresh_.reset();
      const std::string message =
          absl::StrCat("invalid regular expression '", pattern ? pattern : "", "': ", why);
      sqlite3_result_error(ctx, message.c_str(), -1);
      return;
    }
    fresh_->compiled = true;
    re_ = &fresh_->re;
  }
  ~Pattern() {
    if (fresh_) sqlite3_set_auxdata(ctx_, slot_, fresh_.release(), FreeCompiled);
  }
  Pattern(const Pattern&) = delete;
  Pattern& operator=(const Pattern&) = delete;

  // nullptr when the pattern did not compile (the error is already reported).
  const regex_t* get() const { return re_; }

 private:
  sqlite3_context* ctx_;
  int slot_;
  std::unique_ptr<CompiledRegex> fresh_;
  const regex_t* re_ = nullptr;
};

bool AnyNull(int argc, sqlite3_value** argv) {
  for (int i = 0; i < argc; ++i) {
    if (sqlite3_value_type(argv[i]) == SQLITE_NULL) return true;
  }
  return false;
}

std::string Text(sqlite3_value* v) {
  const auto* p = reinterpret_cast<const char*>(sqlite3_value_text(v));
  return p ? std::string(p, static_cast<size_t>(sqlite3_value_bytes(v))) : std::string();
}

void Regexp(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (AnyNull(argc, argv)) return sqlite3_result_null(ctx);
  int cflags = REG_NOSUB;
  if (argc == 3) {
    for (char f : Text(argv[2])) {
      if (f == 'i') {
        cflags |= REG_ICASE;
      } else if (f == 'c') {
        cflags &= ~REG_ICASE;
      } else {
        const std::string message = absl::StrCat("regexp: unknown flag '", std::string(1, f),
                                                 "' (expected 'i' or 'c')");
        return sqlite3_result_error(ctx, message.c_str(), -1);
      }
    }
  }
  const Pattern pattern(ctx, argv, 0, cflags);
  const regex_t* re = pattern.get();
  if (!re) return;
  const std::string text = Text(argv[1]);
  sqlite3_result_int(ctx, regexec(re, text.c_str(), 0, nullptr, 0) == 0 ? 1 : 0);
}

void RegexpExtract(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (AnyNull(argc, argv)) return sqlite3_result_null(ctx);
  const Pattern pattern(ctx, argv, 1, 0);
  const regex_t* re = pattern.get();
  if (!re) return;
  const std::string text = Text(argv[0]);
  regmatch_t m[2];
  if (regexec(re, text.c_str(), 2, m, 0) != 0) return sqlite3_result_null(ctx);
  const regmatch_t& pick = (re->re_nsub >= 1 && m[1].rm_so >= 0) ? m[1] : m[0];
  sqlite3_result_text(ctx, text.data() + pick.rm_so, static_cast<int>(pick.rm_eo - pick.rm_so),
                      SQLITE_TRANSIENT);
}

void RegexpReplaceSimple(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (AnyNull(argc, argv)) return sqlite3_result_null(ctx);
  const Pattern pattern(ctx, argv, 1, 0);
  const regex_t* re = pattern.get();
  if (!re) return;
  const std::string text = Text(argv[0]);
  const std::string replacement = Text(argv[2]);
  std::string out;
  size_t at = 0;
  for (;;) {
    regmatch_t m;
    if (regexec(re, text.c_str() + at, 1, &m, at > 0 ? REG_NOTBOL : 0) != 0) break;
    const size_t start = at + static_cast<size_t>(m.rm_so);
    const size_t end = at + static_cast<size_t>(m.rm_eo);
    out.append(text, at, start - at);
    out.append(replacement);
    if (end == start) {
      // An empty match: keep the next character and look again after it.
      if (start >= text.size()) {
        at = text.size();
        break;
      }
      out.push_back(text[start]);
      at = start + 1;
    } else {
      at = end;
    }
    if (at > text.size()) break;
  }
  if (at < text.size()) out.append(text, at, std::string::npos);
  sqlite3_result_text(ctx, out.data(), static_cast<int>(out.size()), SQLITE_TRANSIENT);
}

}  // namespace

absl::Status RegisterRegexpFunctions(sqlite3* db) {
  struct Def {
    const char* name;
    int args;
    void (*fn)(sqlite3_context*, int, sqlite3_value**);
  };
  static constexpr Def kDefs[] = {
      {"regexp", 2, Regexp},
      {"regexp", 3, Regexp},
      {"regexp_extract", 2, RegexpExtract},
      {"regexp_replace_simple", 3, RegexpReplaceSimple},
  };
  for (const Def& d : kDefs) {
    const int rc = sqlite3_create_function_v2(db, d.name, d.args,
                                              SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr, d.fn,
                                              nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK) {
      return absl::InternalError(absl::StrCat("cannot register ", d.name, ": ", sqlite3_errstr(rc)));
    }
  }
  return absl::OkStatus();
}

}  // namespace tw
