# Turns a text file into a C string: -DIN=file -DOUT=file.c [-DNAME=symbol (gm_families_ini)]
if(NOT NAME)
  set(NAME gm_families_ini)
endif()
file(READ ${IN} content HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${content}")
file(WRITE ${OUT} "/* generated from ${IN}; do not edit */\nconst char ${NAME}[] = {${bytes} 0x00};\n")
