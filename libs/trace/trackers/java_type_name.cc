#include "libs/trace/trackers/java_type_name.h"

namespace tw {
namespace {
constexpr std::string_view kClassPrefix = "java.lang.Class<";
}  // namespace

JavaTypeName ParseJavaTypeName(std::string_view name) {
  JavaTypeName out;
  if (name.size() > kClassPrefix.size() && name.back() == '>' &&
      name.substr(0, kClassPrefix.size()) == kClassPrefix) {
    name = name.substr(kClassPrefix.size(), name.size() - kClassPrefix.size() - 1);
    out.is_class_object = true;
  }
  while (name.size() >= 2 && name.substr(name.size() - 2) == "[]") {
    name.remove_suffix(2);
    ++out.array_dimensions;
  }
  out.base = name;
  return out;
}

std::string DecorateJavaTypeName(const JavaTypeName& shape, std::string_view base) {
  std::string out(base);
  for (size_t i = 0; i < shape.array_dimensions; ++i) out += "[]";
  if (shape.is_class_object) out = std::string(kClassPrefix) + out + ">";
  return out;
}

}  // namespace tw
