#include <stdio.h>
#include <time.h>
#include <immintrin.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(){
  volatile long sink; double best=1e9, bestf=1e9;
  for(int r=0;r<20;r++){ double t=now(); long a=1,b=2,c=3,d=4; for(long i=0;i<50000000;i++){a+=i;b^=a;c+=b;d^=c;} sink=a+b+c+d; t=now()-t; if(t<best)best=t;}
  __m512 x0=_mm512_set1_ps(1),x1=x0,x2=x0,x3=x0,x4=x0,x5=x0,x6=x0,x7=x0,m=_mm512_set1_ps(0.999f),ad=_mm512_set1_ps(0.001f);
  for(int r=0;r<20;r++){ double t=now(); for(long i=0;i<20000000;i++){x0=_mm512_fmadd_ps(x0,m,ad);x1=_mm512_fmadd_ps(x1,m,ad);x2=_mm512_fmadd_ps(x2,m,ad);x3=_mm512_fmadd_ps(x3,m,ad);x4=_mm512_fmadd_ps(x4,m,ad);x5=_mm512_fmadd_ps(x5,m,ad);x6=_mm512_fmadd_ps(x6,m,ad);x7=_mm512_fmadd_ps(x7,m,ad);} t=now()-t; if(t<bestf)bestf=t;}
  float o[16]; _mm512_storeu_ps(o,_mm512_add_ps(_mm512_add_ps(x0,x1),_mm512_add_ps(x2,x7))); 
  printf("scalar ALU loop %.1f ms; fma512 %.1f ms (%.1f GFLOP/s) %g\n", best*1e3, bestf*1e3, 20000000.0*8*32/bestf/1e9, o[0]+x3[0]+x4[0]+x5[0]+x6[0]);
}
