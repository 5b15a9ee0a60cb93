#pragma once
// Syscall names by number for each CPU architecture, so raw sys_enter/sys_exit events become
// readable slices ("sys_write", "sys_openat", ...).

#include <cstdint>
#include <string_view>

namespace tw {

enum class SyscallArch : uint8_t { kUnknown, kArm64, kArm32, kX86, kX8664 };

// uname's machine ("aarch64", "x86_64", ...) → architecture.
SyscallArch SyscallArchFromMachine(std::string_view machine);
// The name without the "sys_" prefix ("write"), or "" when unknown.
std::string_view SyscallName(SyscallArch arch, uint32_t number);

}  // namespace tw
