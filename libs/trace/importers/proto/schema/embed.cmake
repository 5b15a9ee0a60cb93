# Turns a binary file (a protoc descriptor set) into a C++ source defining
# `std::string_view <SYMBOL>()`, so the descriptors ship inside the engine.
# Usage: cmake -DIN=file.desc -DOUT=file.cc -DSYMBOL=Name -P embed.cmake
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" len)
math(EXPR bytes "${len} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){24})" "\\1\n    " body "${body}")
file(WRITE "${OUT}"
"// Generated from ${IN} by embed.cmake: do not edit.\n"
"#include <string_view>\n\n"
"namespace tw {\n"
"namespace {\n"
"const unsigned char kData[] = {\n    ${body}\n};\n"
"}  // namespace\n\n"
"std::string_view ${SYMBOL}() {\n"
"  return std::string_view(reinterpret_cast<const char*>(kData), ${bytes});\n"
"}\n\n"
"}  // namespace tw\n")
