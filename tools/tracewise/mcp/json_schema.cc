#include "tools/tracewise/mcp/json_schema.h"

#include <cmath>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tw::mcp {
namespace {

const std::set<std::string>& Enforced() {
  static const std::set<std::string> kKeys = {
      "type",    "properties", "required", "additionalProperties", "items",    "enum",
      "const",   "minimum",    "maximum",  "minLength",            "maxLength", "minItems",
      "maxItems"};
  return kKeys;
}

const std::set<std::string>& Annotations() {
  static const std::set<std::string> kKeys = {"title",    "description", "default",
                                              "examples", "format",      "$schema",
                                              "$comment", "deprecated",  "readOnly"};
  return kKeys;
}

const std::set<std::string>& TypeNames() {
  static const std::set<std::string> kNames = {"null",   "boolean", "object", "array",
                                               "number", "integer", "string"};
  return kNames;
}

absl::Status CheckAt(const Json& schema, const std::string& where, int depth) {
  if (depth > 16) return absl::InvalidArgumentError(absl::StrCat(where, ": schema nested too deeply"));
  if (schema.is_boolean()) return absl::OkStatus();
  if (!schema.is_object()) {
    return absl::InvalidArgumentError(absl::StrCat(where, ": a schema must be an object or a boolean"));
  }
  for (const auto& [key, value] : schema.items()) {
    if (Annotations().count(key)) continue;
    if (!Enforced().count(key)) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": keyword \"", key, "\" is not supported by this validator"));
    }
    if (key == "type") {
      const Json names = value.is_array() ? value : Json::array({value});
      for (const Json& n : names) {
        if (!n.is_string() || !TypeNames().count(n.get<std::string>())) {
          return absl::InvalidArgumentError(absl::StrCat(where, ": bad type ", n.dump()));
        }
      }
    } else if (key == "properties") {
      if (!value.is_object()) return absl::InvalidArgumentError(absl::StrCat(where, ": properties must be an object"));
      for (const auto& [name, sub] : value.items()) {
        if (auto s = CheckAt(sub, absl::StrCat(where, ".", name), depth + 1); !s.ok()) return s;
      }
    } else if (key == "additionalProperties" || key == "items") {
      if (auto s = CheckAt(value, absl::StrCat(where, "[", key, "]"), depth + 1); !s.ok()) return s;
    } else if (key == "required") {
      if (!value.is_array()) return absl::InvalidArgumentError(absl::StrCat(where, ": required must be an array"));
      for (const Json& n : value) {
        if (!n.is_string()) return absl::InvalidArgumentError(absl::StrCat(where, ": required names must be strings"));
      }
    } else if (key == "enum") {
      if (!value.is_array() || value.empty()) {
        return absl::InvalidArgumentError(absl::StrCat(where, ": enum must be a non-empty array"));
      }
    } else if (key != "const" && !value.is_number()) {
      return absl::InvalidArgumentError(absl::StrCat(where, ": ", key, " must be a number"));
    }
  }
  return absl::OkStatus();
}

bool IsIntegral(const Json& v) {
  if (v.is_number_integer()) return true;
  if (!v.is_number_float()) return false;
  const double d = v.get<double>();
  return std::isfinite(d) && std::floor(d) == d;
}

bool HasType(const Json& v, const std::string& type) {
  if (type == "null") return v.is_null();
  if (type == "boolean") return v.is_boolean();
  if (type == "object") return v.is_object();
  if (type == "array") return v.is_array();
  if (type == "number") return v.is_number();
  if (type == "integer") return IsIntegral(v);
  if (type == "string") return v.is_string();
  return false;
}

std::string WithArticle(const std::string& type) {
  if (type == "null") return "null";
  const bool vowel = type[0] == 'a' || type[0] == 'i' || type[0] == 'o';
  return absl::StrCat(vowel ? "an " : "a ", type);
}

std::string TypeName(const Json& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return "a boolean";
  if (v.is_object()) return "an object";
  if (v.is_array()) return "an array";
  if (v.is_number_integer()) return "an integer";
  if (v.is_number()) return "a number";
  return "a string";
}

// Short, readable rendering of a value for messages.
std::string Brief(const Json& v) {
  std::string s = v.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  return s;
}

size_t Utf8Length(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

class Validator {
 public:
  explicit Validator(size_t max_problems) : max_(max_problems) {}
  std::vector<std::string> problems;

  void Check(const Json& schema, const Json& v, const std::string& path) {
    if (problems.size() >= max_) return;
    if (schema.is_boolean()) {
      if (!schema.get<bool>()) Add(path, "is not allowed");
      return;
    }
    if (auto t = schema.find("type"); t != schema.end()) {
      const Json names = t->is_array() ? *t : Json::array({*t});
      bool ok = false;
      std::vector<std::string> wanted;
      for (const Json& n : names) {
        ok = ok || HasType(v, n.get<std::string>());
        wanted.push_back(WithArticle(n.get<std::string>()));
      }
      if (!ok) {
        Add(path, absl::StrCat("must be ", absl::StrJoin(wanted, " or "), ", not ", TypeName(v)));
        return;  // the other keywords would only repeat the point
      }
    }
    if (auto e = schema.find("enum"); e != schema.end()) {
      bool found = false;
      for (const Json& option : *e) found = found || option == v;
      if (!found) {
        std::vector<std::string> options;
        for (const Json& option : *e) options.push_back(Brief(option));
        Add(path, absl::StrCat("must be one of ", absl::StrJoin(options, ", "), ", not ", Brief(v)));
      }
    }
    if (auto c = schema.find("const"); c != schema.end() && *c != v) {
      Add(path, absl::StrCat("must be ", Brief(*c)));
    }
    if (v.is_number()) {
      const double d = v.get<double>();
      if (auto m = schema.find("minimum"); m != schema.end() && d < m->get<double>()) {
        Add(path, absl::StrCat("must be at least ", m->dump()));
      }
      if (auto m = schema.find("maximum"); m != schema.end() && d > m->get<double>()) {
        Add(path, absl::StrCat("must be at most ", m->dump()));
      }
    }
    if (v.is_string()) {
      const size_t n = Utf8Length(v.get_ref<const std::string&>());
      if (auto m = schema.find("minLength"); m != schema.end() && n < m->get<double>()) {
        Add(path, m->get<double>() <= 1 ? "must not be empty"
                                        : absl::StrCat("must be at least ", m->dump(), " characters"));
      }
      if (auto m = schema.find("maxLength"); m != schema.end() && n > m->get<double>()) {
        Add(path, absl::StrCat("must be at most ", m->dump(), " characters"));
      }
    }
    if (v.is_array()) {
      if (auto m = schema.find("minItems"); m != schema.end() && v.size() < m->get<double>()) {
        Add(path, absl::StrCat("must have at least ", m->dump(), " items"));
      }
      if (auto m = schema.find("maxItems"); m != schema.end() && v.size() > m->get<double>()) {
        Add(path, absl::StrCat("must have at most ", m->dump(), " items"));
      }
      if (auto items = schema.find("items"); items != schema.end()) {
        for (size_t i = 0; i < v.size() && problems.size() < max_; ++i) {
          Check(*items, v[i], absl::StrCat(path, "[", i, "]"));
        }
      }
    }
    if (v.is_object()) CheckObject(schema, v, path);
  }

 private:
  void CheckObject(const Json& schema, const Json& v, const std::string& path) {
    static const Json kNoProperties = Json::object();
    auto props_it = schema.find("properties");
    const Json& props = props_it != schema.end() ? *props_it : kNoProperties;
    if (auto r = schema.find("required"); r != schema.end()) {
      for (const Json& name : *r) {
        if (!v.contains(name.get<std::string>())) {
          Add(path, absl::StrCat("missing required property \"", name.get<std::string>(), "\""));
        }
      }
    }
    auto extra = schema.find("additionalProperties");
    for (const auto& [name, value] : v.items()) {
      if (problems.size() >= max_) return;
      const std::string child = path.empty() ? name : absl::StrCat(path, ".", name);
      if (auto p = props.find(name); p != props.end()) {
        Check(*p, value, child);
      } else if (extra != schema.end()) {
        if (extra->is_boolean() && !extra->get<bool>()) {
          std::vector<std::string> known;
          for (const auto& [k, unused] : props.items()) known.push_back(k);
          Add(path, absl::StrCat("unknown property \"", name, "\"",
                                 known.empty() ? "" : absl::StrCat(" (expected: ", absl::StrJoin(known, ", "), ")")));
        } else {
          Check(*extra, value, child);
        }
      }
    }
  }

  void Add(const std::string& path, std::string problem) {
    if (problems.size() >= max_) return;
    problems.push_back(path.empty() ? std::move(problem) : absl::StrCat(path, ": ", problem));
  }

  size_t max_;
};

}  // namespace

absl::Status CheckSchemaSupported(const Json& schema) { return CheckAt(schema, "schema", 0); }

std::vector<std::string> ValidateJson(const Json& schema, const Json& value, size_t max_problems) {
  Validator v(max_problems);
  v.Check(schema, value, "");
  return std::move(v.problems);
}

}  // namespace tw::mcp
