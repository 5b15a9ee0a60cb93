#include "libs/trace/query/arg_set_json.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string_view>
#include <utility>

namespace tw {
namespace {

// A JSON value under construction: an object (ordered members), an array or a leaf.
struct Node {
  enum class Type { kEmpty, kObject, kArray, kLeaf };
  Type type = Type::kEmpty;
  std::vector<std::pair<std::string, std::unique_ptr<Node>>> members;
  std::vector<std::unique_ptr<Node>> items;
  std::string leaf;  // already JSON text

  Node* Member(std::string_view name) {
    if (type != Type::kObject) {
      type = Type::kObject;
      items.clear();
    }
    for (auto& [key, child] : members) {
      if (key == name) return child.get();
    }
    members.emplace_back(std::string(name), std::make_unique<Node>());
    return members.back().second.get();
  }
  Node* Item(size_t index) {
    if (type != Type::kArray) {
      type = Type::kArray;
      members.clear();
    }
    while (items.size() <= index) items.push_back(std::make_unique<Node>());
    return items[index].get();
  }
};

void AppendEscaped(std::string* out, std::string_view s) {
  out->push_back('"');
  for (char c : s) {
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          out->append(buf);
        } else {
          out->push_back(c);
        }
    }
  }
  out->push_back('"');
}

std::string LeafText(const ArgJsonEntry& e) {
  char buf[64];
  switch (e.kind) {
    case ArgJsonEntry::Kind::kNull:
      return "null";
    case ArgJsonEntry::Kind::kInt:
      return std::to_string(e.int_value);
    case ArgJsonEntry::Kind::kUint:
      return std::to_string(static_cast<uint64_t>(e.int_value));
    case ArgJsonEntry::Kind::kBool:
      return e.int_value ? "true" : "false";
    case ArgJsonEntry::Kind::kPointer:
      std::snprintf(buf, sizeof(buf), "\"0x%" PRIx64 "\"", static_cast<uint64_t>(e.int_value));
      return buf;
    case ArgJsonEntry::Kind::kReal: {
      if (!std::isfinite(e.real_value)) return "null";  // JSON has no NaN or infinity
      // The shortest text that reads back as the same double.
      for (int precision = 15; precision <= 17; ++precision) {
        std::snprintf(buf, sizeof(buf), "%.*g", precision, e.real_value);
        if (std::strtod(buf, nullptr) == e.real_value) break;
      }
      return buf;
    }
    case ArgJsonEntry::Kind::kString: {
      std::string out;
      AppendEscaped(&out, e.string_value);
      return out;
    }
    case ArgJsonEntry::Kind::kJson:
      return e.string_value.empty() ? "null" : e.string_value;
  }
  return "null";
}

// Walks `key` ("a.b[1].c") from `root`, creating what is missing; the node the key names.
Node* NodeAt(Node* root, std::string_view key) {
  Node* at = root;
  size_t i = 0;
  for (;;) {
    size_t end = key.find_first_of(".[", i);
    if (end == std::string_view::npos) end = key.size();
    at = at->Member(key.substr(i, end - i));
    while (end < key.size() && key[end] == '[') {  // any number of [n] after the name
      const size_t close = key.find(']', end);
      if (close == std::string_view::npos) return at;  // malformed: stop at the name
      const std::string digits(key.substr(end + 1, close - end - 1));
      at = at->Item(static_cast<size_t>(std::strtoull(digits.c_str(), nullptr, 10)));
      end = close + 1;
    }
    if (end >= key.size()) return at;
    i = key[end] == '.' ? end + 1 : end;
  }
}

void Write(const Node& n, std::string* out) {
  switch (n.type) {
    case Node::Type::kEmpty:
      out->append("null");
      return;
    case Node::Type::kLeaf:
      out->append(n.leaf);
      return;
    case Node::Type::kObject:
      out->push_back('{');
      for (size_t i = 0; i < n.members.size(); ++i) {
        if (i) out->push_back(',');
        AppendEscaped(out, n.members[i].first);
        out->push_back(':');
        Write(*n.members[i].second, out);
      }
      out->push_back('}');
      return;
    case Node::Type::kArray:
      out->push_back('[');
      for (size_t i = 0; i < n.items.size(); ++i) {
        if (i) out->push_back(',');
        Write(*n.items[i], out);
      }
      out->push_back(']');
      return;
  }
}

}  // namespace

std::string ArgSetToJson(const std::vector<ArgJsonEntry>& entries) {
  Node root;
  root.type = Node::Type::kObject;
  for (const ArgJsonEntry& e : entries) {
    Node* n = NodeAt(&root, e.key);
    n->type = Node::Type::kLeaf;
    n->members.clear();
    n->items.clear();
    n->leaf = LeafText(e);
  }
  std::string out;
  Write(root, &out);
  return out;
}

}  // namespace tw
