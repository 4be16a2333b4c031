// 62 correlated pairs, `if (x[i]) cudaMalloc(&p_i, 4);` ... `if (x[i]) cudaFree(p_i);`, in one
// function (issue 30): 2^62 combinations of live buffers, past the flow engine's state budget.
// Where the engine drops what it knows to stay within its budget it must not report what it no
// longer knows: every buffer is freed under the condition it was allocated under, so there is
// no GM001, only the notice that the analysis was cut short.
#include <cuda_runtime.h>

void pairs(const int *x) { // expected-note {{analysis of 'pairs' was cut short (too many paths); findings in it may be incomplete}}
  float *p0;
  float *p1;
  float *p2;
  float *p3;
  float *p4;
  float *p5;
  float *p6;
  float *p7;
  float *p8;
  float *p9;
  float *p10;
  float *p11;
  float *p12;
  float *p13;
  float *p14;
  float *p15;
  float *p16;
  float *p17;
  float *p18;
  float *p19;
  float *p20;
  float *p21;
  float *p22;
  float *p23;
  float *p24;
  float *p25;
  float *p26;
  float *p27;
  float *p28;
  float *p29;
  float *p30;
  float *p31;
  float *p32;
  float *p33;
  float *p34;
  float *p35;
  float *p36;
  float *p37;
  float *p38;
  float *p39;
  float *p40;
  float *p41;
  float *p42;
  float *p43;
  float *p44;
  float *p45;
  float *p46;
  float *p47;
  float *p48;
  float *p49;
  float *p50;
  float *p51;
  float *p52;
  float *p53;
  float *p54;
  float *p55;
  float *p56;
  float *p57;
  float *p58;
  float *p59;
  float *p60;
  float *p61;
  if (x[0])
    cudaMalloc(&p0, 4);
  if (x[1])
    cudaMalloc(&p1, 4);
  if (x[2])
    cudaMalloc(&p2, 4);
  if (x[3])
    cudaMalloc(&p3, 4);
  if (x[4])
    cudaMalloc(&p4, 4);
  if (x[5])
    cudaMalloc(&p5, 4);
  if (x[6])
    cudaMalloc(&p6, 4);
  if (x[7])
    cudaMalloc(&p7, 4);
  if (x[8])
    cudaMalloc(&p8, 4);
  if (x[9])
    cudaMalloc(&p9, 4);
  if (x[10])
    cudaMalloc(&p10, 4);
  if (x[11])
    cudaMalloc(&p11, 4);
  if (x[12])
    cudaMalloc(&p12, 4);
  if (x[13])
    cudaMalloc(&p13, 4);
  if (x[14])
    cudaMalloc(&p14, 4);
  if (x[15])
    cudaMalloc(&p15, 4);
  if (x[16])
    cudaMalloc(&p16, 4);
  if (x[17])
    cudaMalloc(&p17, 4);
  if (x[18])
    cudaMalloc(&p18, 4);
  if (x[19])
    cudaMalloc(&p19, 4);
  if (x[20])
    cudaMalloc(&p20, 4);
  if (x[21])
    cudaMalloc(&p21, 4);
  if (x[22])
    cudaMalloc(&p22, 4);
  if (x[23])
    cudaMalloc(&p23, 4);
  if (x[24])
    cudaMalloc(&p24, 4);
  if (x[25])
    cudaMalloc(&p25, 4);
  if (x[26])
    cudaMalloc(&p26, 4);
  if (x[27])
    cudaMalloc(&p27, 4);
  if (x[28])
    cudaMalloc(&p28, 4);
  if (x[29])
    cudaMalloc(&p29, 4);
  if (x[30])
    cudaMalloc(&p30, 4);
  if (x[31])
    cudaMalloc(&p31, 4);
  if (x[32])
    cudaMalloc(&p32, 4);
  if (x[33])
    cudaMalloc(&p33, 4);
  if (x[34])
    cudaMalloc(&p34, 4);
  if (x[35])
    cudaMalloc(&p35, 4);
  if (x[36])
    cudaMalloc(&p36, 4);
  if (x[37])
    cudaMalloc(&p37, 4);
  if (x[38])
    cudaMalloc(&p38, 4);
  if (x[39])
    cudaMalloc(&p39, 4);
  if (x[40])
    cudaMalloc(&p40, 4);
  if (x[41])
    cudaMalloc(&p41, 4);
  if (x[42])
    cudaMalloc(&p42, 4);
  if (x[43])
    cudaMalloc(&p43, 4);
  if (x[44])
    cudaMalloc(&p44, 4);
  if (x[45])
    cudaMalloc(&p45, 4);
  if (x[46])
    cudaMalloc(&p46, 4);
  if (x[47])
    cudaMalloc(&p47, 4);
  if (x[48])
    cudaMalloc(&p48, 4);
  if (x[49])
    cudaMalloc(&p49, 4);
  if (x[50])
    cudaMalloc(&p50, 4);
  if (x[51])
    cudaMalloc(&p51, 4);
  if (x[52])
    cudaMalloc(&p52, 4);
  if (x[53])
    cudaMalloc(&p53, 4);
  if (x[54])
    cudaMalloc(&p54, 4);
  if (x[55])
    cudaMalloc(&p55, 4);
  if (x[56])
    cudaMalloc(&p56, 4);
  if (x[57])
    cudaMalloc(&p57, 4);
  if (x[58])
    cudaMalloc(&p58, 4);
  if (x[59])
    cudaMalloc(&p59, 4);
  if (x[60])
    cudaMalloc(&p60, 4);
  if (x[61])
    cudaMalloc(&p61, 4);
  if (x[0])
    cudaFree(p0);
  if (x[1])
    cudaFree(p1);
  if (x[2])
    cudaFree(p2);
  if (x[3])
    cudaFree(p3);
  if (x[4])
    cudaFree(p4);
  if (x[5])
    cudaFree(p5);
  if (x[6])
    cudaFree(p6);
  if (x[7])
    cudaFree(p7);
  if (x[8])
    cudaFree(p8);
  if (x[9])
    cudaFree(p9);
  if (x[10])
    cudaFree(p10);
  if (x[11])
    cudaFree(p11);
  if (x[12])
    cudaFree(p12);
  if (x[13])
    cudaFree(p13);
  if (x[14])
    cudaFree(p14);
  if (x[15])
    cudaFree(p15);
  if (x[16])
    cudaFree(p16);
  if (x[17])
    cudaFree(p17);
  if (x[18])
    cudaFree(p18);
  if (x[19])
    cudaFree(p19);
  if (x[20])
    cudaFree(p20);
  if (x[21])
    cudaFree(p21);
  if (x[22])
    cudaFree(p22);
  if (x[23])
    cudaFree(p23);
  if (x[24])
    cudaFree(p24);
  if (x[25])
    cudaFree(p25);
  if (x[26])
    cudaFree(p26);
  if (x[27])
    cudaFree(p27);
  if (x[28])
    cudaFree(p28);
  if (x[29])
    cudaFree(p29);
  if (x[30])
    cudaFree(p30);
  if (x[31])
    cudaFree(p31);
  if (x[32])
    cudaFree(p32);
  if (x[33])
    cudaFree(p33);
  if (x[34])
    cudaFree(p34);
  if (x[35])
    cudaFree(p35);
  if (x[36])
    cudaFree(p36);
  if (x[37])
    cudaFree(p37);
  if (x[38])
    cudaFree(p38);
  if (x[39])
    cudaFree(p39);
  if (x[40])
    cudaFree(p40);
  if (x[41])
    cudaFree(p41);
  if (x[42])
    cudaFree(p42);
  if (x[43])
    cudaFree(p43);
  if (x[44])
    cudaFree(p44);
  if (x[45])
    cudaFree(p45);
  if (x[46])
    cudaFree(p46);
  if (x[47])
    cudaFree(p47);
  if (x[48])
    cudaFree(p48);
  if (x[49])
    cudaFree(p49);
  if (x[50])
    cudaFree(p50);
  if (x[51])
    cudaFree(p51);
  if (x[52])
    cudaFree(p52);
  if (x[53])
    cudaFree(p53);
  if (x[54])
    cudaFree(p54);
  if (x[55])
    cudaFree(p55);
  if (x[56])
    cudaFree(p56);
  if (x[57])
    cudaFree(p57);
  if (x[58])
    cudaFree(p58);
  if (x[59])
    cudaFree(p59);
  if (x[60])
    cudaFree(p60);
  if (x[61])
    cudaFree(p61);
}
