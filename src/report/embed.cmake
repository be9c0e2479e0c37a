# Write a file's bytes as a C array: cmake -DIN=file -DOUT=file.c -DNAME=sym -P embed.cmake
# gives `const unsigned char sym[]` and `const size_t sym_len` (iolens report's
# page assets, src/report/report_assets.h).
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" digits)
math(EXPR len "${digits} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE "${OUT}" "/* Generated from ${IN} by src/report/embed.cmake. */\n#include <stddef.h>\n"
  "const unsigned char ${NAME}[] = {${bytes}0};\nconst size_t ${NAME}_len = ${len};\n")
