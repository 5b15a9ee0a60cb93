#pragma once
// A DeobfuscationMapping packet: the ProGuard / R8 mapping of one app package, obfuscated →
// readable names of classes, their fields and their methods. Mappings apply once the whole
// trace is in (to heap graph classes and fields, and to Java frames), whatever their position.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tw {

// DeobfuscationMapping (protos/perfetto/trace/profiling/deobfuscation.proto).
struct DeobfuscationMappingData {
  struct Member {
    std::string obfuscated_name;
    std::string deobfuscated_name;
    std::optional<uint32_t> obfuscated_line_start;
    std::optional<uint32_t> obfuscated_line_end;
    std::optional<uint32_t> source_line_start;
    std::optional<uint32_t> source_line_end;
  };
  struct Class {
    std::string obfuscated_name;
    std::string deobfuscated_name;
    std::vector<Member> members;  // fields
    std::vector<Member> methods;
  };
  std::string package_name;
  std::optional<int64_t> version_code;
  std::vector<Class> classes;
};

}  // namespace tw
