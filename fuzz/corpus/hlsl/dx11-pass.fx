/* c */ technique11 M { pass { SetVertexShader(CompileShader(vs_5_0, V())); SetPixelShader(NULL); SetRasterizerState(RS); } }
