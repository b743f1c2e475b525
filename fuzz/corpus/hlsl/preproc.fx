#define X technique \
  continued
"technique" string
float4 f() { technique t; return 0; }
