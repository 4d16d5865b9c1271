//go:build amd64 && !purego

#include "textflag.h"

// Constants, each replicated over the 8 lanes of a YMM register so that it can be a memory
// operand of a 256-bit instruction.
#define INVSQRT2 kconst<>+0(SB)	// 1/√2
#define FOUR kconst<>+32(SB)	// erf's clamp
#define MFOUR kconst<>+64(SB)
#define A13 kconst<>+96(SB)	// erf numerator, odd powers
#define A11 kconst<>+128(SB)
#define A9 kconst<>+160(SB)
#define A7 kconst<>+192(SB)
#define A5 kconst<>+224(SB)
#define A3 kconst<>+256(SB)
#define A1 kconst<>+288(SB)
#define B8 kconst<>+320(SB)	// erf denominator, even powers
#define B6 kconst<>+352(SB)
#define B4 kconst<>+384(SB)
#define B2 kconst<>+416(SB)
#define B0 kconst<>+448(SB)
#define HALF kconst<>+480(SB)
#define ONE kconst<>+512(SB)
#define EXPHI kconst<>+544(SB)	// exp's clamp
#define EXPLO kconst<>+576(SB)
#define LOG2E kconst<>+608(SB)
#define C1 kconst<>+640(SB)	// ln 2 = C1 - C2
#define C2 kconst<>+672(SB)
#define P0 kconst<>+704(SB)	// exp polynomial
#define P1 kconst<>+736(SB)
#define P2 kconst<>+768(SB)
#define P3 kconst<>+800(SB)
#define P4 kconst<>+832(SB)
#define P5 kconst<>+864(SB)
#define BIAS127 kconst<>+896(SB)	// float32 exponent bias (int32 lanes)

DATA kconst<>+0(SB)/8, $0x3f3504f33f3504f3
DATA kconst<>+8(SB)/8, $0x3f3504f33f3504f3
DATA kconst<>+16(SB)/8, $0x3f3504f33f3504f3
DATA kconst<>+24(SB)/8, $0x3f3504f33f3504f3
DATA kconst<>+32(SB)/8, $0x4080000040800000
DATA kconst<>+40(SB)/8, $0x4080000040800000
DATA kconst<>+48(SB)/8, $0x4080000040800000
DATA kconst<>+56(SB)/8, $0x4080000040800000
DATA kconst<>+64(SB)/8, $0xc0800000c0800000
DATA kconst<>+72(SB)/8, $0xc0800000c0800000
DATA kconst<>+80(SB)/8, $0xc0800000c0800000
DATA kconst<>+88(SB)/8, $0xc0800000c0800000
DATA kconst<>+96(SB)/8, $0xaf95df0baf95df0b
DATA kconst<>+104(SB)/8, $0xaf95df0baf95df0b
DATA kconst<>+112(SB)/8, $0xaf95df0baf95df0b
DATA kconst<>+120(SB)/8, $0xaf95df0baf95df0b
DATA kconst<>+128(SB)/8, $0x32edffee32edffee
DATA kconst<>+136(SB)/8, $0x32edffee32edffee
DATA kconst<>+144(SB)/8, $0x32edffee32edffee
DATA kconst<>+152(SB)/8, $0x32edffee32edffee
DATA kconst<>+160(SB)/8, $0xb60cff51b60cff51
DATA kconst<>+168(SB)/8, $0xb60cff51b60cff51
DATA kconst<>+176(SB)/8, $0xb60cff51b60cff51
DATA kconst<>+184(SB)/8, $0xb60cff51b60cff51
DATA kconst<>+192(SB)/8, $0xb86ec2d2b86ec2d2
DATA kconst<>+200(SB)/8, $0xb86ec2d2b86ec2d2
DATA kconst<>+208(SB)/8, $0xb86ec2d2b86ec2d2
DATA kconst<>+216(SB)/8, $0xb86ec2d2b86ec2d2
DATA kconst<>+224(SB)/8, $0xba40ac63ba40ac63
DATA kconst<>+232(SB)/8, $0xba40ac63ba40ac63
DATA kconst<>+240(SB)/8, $0xba40ac63ba40ac63
DATA kconst<>+248(SB)/8, $0xba40ac63ba40ac63
DATA kconst<>+256(SB)/8, $0xbb41a1f6bb41a1f6
DATA kconst<>+264(SB)/8, $0xbb41a1f6bb41a1f6
DATA kconst<>+272(SB)/8, $0xbb41a1f6bb41a1f6
DATA kconst<>+280(SB)/8, $0xbb41a1f6bb41a1f6
DATA kconst<>+288(SB)/8, $0xbc83dbd4bc83dbd4
DATA kconst<>+296(SB)/8, $0xbc83dbd4bc83dbd4
DATA kconst<>+304(SB)/8, $0xbc83dbd4bc83dbd4
DATA kconst<>+312(SB)/8, $0xbc83dbd4bc83dbd4
DATA kconst<>+320(SB)/8, $0xb77460cdb77460cd
DATA kconst<>+328(SB)/8, $0xb77460cdb77460cd
DATA kconst<>+336(SB)/8, $0xb77460cdb77460cd
DATA kconst<>+344(SB)/8, $0xb77460cdb77460cd
DATA kconst<>+352(SB)/8, $0xb95fbd29b95fbd29
DATA kconst<>+360(SB)/8, $0xb95fbd29b95fbd29
DATA kconst<>+368(SB)/8, $0xb95fbd29b95fbd29
DATA kconst<>+376(SB)/8, $0xb95fbd29b95fbd29
DATA kconst<>+384(SB)/8, $0xbadc924ebadc924e
DATA kconst<>+392(SB)/8, $0xbadc924ebadc924e
DATA kconst<>+400(SB)/8, $0xbadc924ebadc924e
DATA kconst<>+408(SB)/8, $0xbadc924ebadc924e
DATA kconst<>+416(SB)/8, $0xbbf19bf8bbf19bf8
DATA kconst<>+424(SB)/8, $0xbbf19bf8bbf19bf8
DATA kconst<>+432(SB)/8, $0xbbf19bf8bbf19bf8
DATA kconst<>+440(SB)/8, $0xbbf19bf8bbf19bf8
DATA kconst<>+448(SB)/8, $0xbc69b6a7bc69b6a7
DATA kconst<>+456(SB)/8, $0xbc69b6a7bc69b6a7
DATA kconst<>+464(SB)/8, $0xbc69b6a7bc69b6a7
DATA kconst<>+472(SB)/8, $0xbc69b6a7bc69b6a7
DATA kconst<>+480(SB)/8, $0x3f0000003f000000
DATA kconst<>+488(SB)/8, $0x3f0000003f000000
DATA kconst<>+496(SB)/8, $0x3f0000003f000000
DATA kconst<>+504(SB)/8, $0x3f0000003f000000
DATA kconst<>+512(SB)/8, $0x3f8000003f800000
DATA kconst<>+520(SB)/8, $0x3f8000003f800000
DATA kconst<>+528(SB)/8, $0x3f8000003f800000
DATA kconst<>+536(SB)/8, $0x3f8000003f800000
DATA kconst<>+544(SB)/8, $0x42b0c0a542b0c0a5
DATA kconst<>+552(SB)/8, $0x42b0c0a542b0c0a5
DATA kconst<>+560(SB)/8, $0x42b0c0a542b0c0a5
DATA kconst<>+568(SB)/8, $0x42b0c0a542b0c0a5
DATA kconst<>+576(SB)/8, $0xc2b0c0a5c2b0c0a5
DATA kconst<>+584(SB)/8, $0xc2b0c0a5c2b0c0a5
DATA kconst<>+592(SB)/8, $0xc2b0c0a5c2b0c0a5
DATA kconst<>+600(SB)/8, $0xc2b0c0a5c2b0c0a5
DATA kconst<>+608(SB)/8, $0x3fb8aa3b3fb8aa3b
DATA kconst<>+616(SB)/8, $0x3fb8aa3b3fb8aa3b
DATA kconst<>+624(SB)/8, $0x3fb8aa3b3fb8aa3b
DATA kconst<>+632(SB)/8, $0x3fb8aa3b3fb8aa3b
DATA kconst<>+640(SB)/8, $0x3f3180003f318000
DATA kconst<>+648(SB)/8, $0x3f3180003f318000
DATA kconst<>+656(SB)/8, $0x3f3180003f318000
DATA kconst<>+664(SB)/8, $0x3f3180003f318000
DATA kconst<>+672(SB)/8, $0xb95e8083b95e8083
DATA kconst<>+680(SB)/8, $0xb95e8083b95e8083
DATA kconst<>+688(SB)/8, $0xb95e8083b95e8083
DATA kconst<>+696(SB)/8, $0xb95e8083b95e8083
DATA kconst<>+704(SB)/8, $0x3950696739506967
DATA kconst<>+712(SB)/8, $0x3950696739506967
DATA kconst<>+720(SB)/8, $0x3950696739506967
DATA kconst<>+728(SB)/8, $0x3950696739506967
DATA kconst<>+736(SB)/8, $0x3ab743ce3ab743ce
DATA kconst<>+744(SB)/8, $0x3ab743ce3ab743ce
DATA kconst<>+752(SB)/8, $0x3ab743ce3ab743ce
DATA kconst<>+760(SB)/8, $0x3ab743ce3ab743ce
DATA kconst<>+768(SB)/8, $0x3c0889083c088908
DATA kconst<>+776(SB)/8, $0x3c0889083c088908
DATA kconst<>+784(SB)/8, $0x3c0889083c088908
DATA kconst<>+792(SB)/8, $0x3c0889083c088908
DATA kconst<>+800(SB)/8, $0x3d2aa9c13d2aa9c1
DATA kconst<>+808(SB)/8, $0x3d2aa9c13d2aa9c1
DATA kconst<>+816(SB)/8, $0x3d2aa9c13d2aa9c1
DATA kconst<>+824(SB)/8, $0x3d2aa9c13d2aa9c1
DATA kconst<>+832(SB)/8, $0x3e2aaaaa3e2aaaaa
DATA kconst<>+840(SB)/8, $0x3e2aaaaa3e2aaaaa
DATA kconst<>+848(SB)/8, $0x3e2aaaaa3e2aaaaa
DATA kconst<>+856(SB)/8, $0x3e2aaaaa3e2aaaaa
DATA kconst<>+864(SB)/8, $0x3f0000003f000000
DATA kconst<>+872(SB)/8, $0x3f0000003f000000
DATA kconst<>+880(SB)/8, $0x3f0000003f000000
DATA kconst<>+888(SB)/8, $0x3f0000003f000000
DATA kconst<>+896(SB)/8, $0x0000007f0000007f
DATA kconst<>+904(SB)/8, $0x0000007f0000007f
DATA kconst<>+912(SB)/8, $0x0000007f0000007f
DATA kconst<>+920(SB)/8, $0x0000007f0000007f
GLOBL kconst<>(SB), RODATA|NOPTR, $928

// One k step of the 6x16 micro-kernel: two 8-float vectors of the packed B row at byte
// offset bo (Y12, Y13), each A row's element at byte offset ao broadcast (Y14, Y15), twelve
// FMAs into the accumulators Y0..Y11 (row r in Y(2r), Y(2r+1)). SI points at row 0 of A, R10
// at row 3, R8 is the row stride in bytes, DI the packed B.
#define STEP(ao, bo, bo2) \
	VMOVUPS bo(DI), Y12; \
	VMOVUPS bo2(DI), Y13; \
	VBROADCASTSS ao(SI), Y14; \
	VFMADD231PS Y12, Y14, Y0; \
	VFMADD231PS Y13, Y14, Y1; \
	VBROADCASTSS ao(SI)(R8*1), Y15; \
	VFMADD231PS Y12, Y15, Y2; \
	VFMADD231PS Y13, Y15, Y3; \
	VBROADCASTSS ao(SI)(R8*2), Y14; \
	VFMADD231PS Y12, Y14, Y4; \
	VFMADD231PS Y13, Y14, Y5; \
	VBROADCASTSS ao(R10), Y15; \
	VFMADD231PS Y12, Y15, Y6; \
	VFMADD231PS Y13, Y15, Y7; \
	VBROADCASTSS ao(R10)(R8*1), Y14; \
	VFMADD231PS Y12, Y14, Y8; \
	VFMADD231PS Y13, Y14, Y9; \
	VBROADCASTSS ao(R10)(R8*2), Y15; \
	VFMADD231PS Y12, Y15, Y10; \
	VFMADD231PS Y13, Y15, Y11

// Adds the accumulators of one row to C at DX and moves DX to the next row (R9 bytes on).
#define STORE(lo, hi) \
	VADDPS (DX), lo, lo; \
	VMOVUPS lo, (DX); \
	VADDPS 32(DX), hi, hi; \
	VMOVUPS hi, 32(DX); \
	ADDQ R9, DX

// func sgemm6x16(k int, a *float32, lda int, b *float32, c *float32, ldc int)
TEXT ·sgemm6x16(SB), NOSPLIT, $0-48
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ lda+16(FP), R8
	MOVQ b+24(FP), DI
	MOVQ c+32(FP), DX
	MOVQ ldc+40(FP), R9
	SHLQ $2, R8
	SHLQ $2, R9
	LEAQ (SI)(R8*2), R10
	ADDQ R8, R10

	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11

	MOVQ CX, BX
	SHRQ $2, BX
	ANDQ $3, CX
	TESTQ BX, BX
	JZ   tail

loop4:
	STEP(0, 0, 32)
	STEP(4, 64, 96)
	STEP(8, 128, 160)
	STEP(12, 192, 224)
	ADDQ $16, SI
	ADDQ $16, R10
	ADDQ $256, DI
	DECQ BX
	JNZ  loop4

tail:
	TESTQ CX, CX
	JZ    done

loop1:
	STEP(0, 0, 32)
	ADDQ $4, SI
	ADDQ $4, R10
	ADDQ $64, DI
	DECQ CX
	JNZ  loop1

done:
	STORE(Y0, Y1)
	STORE(Y2, Y3)
	STORE(Y4, Y5)
	STORE(Y6, Y7)
	STORE(Y8, Y9)
	STORE(Y10, Y11)
	VZEROUPPER
	RET

// GELU of the 8 floats in Y0, in place: x/2·(1 + erf(x/√2)) with erf(z) = z·P(z²)/Q(z²) on z
// clamped to [-4, 4]. Clobbers Y1..Y4.
#define GELU8 \
	VMULPS   INVSQRT2, Y0, Y1; \
	VMINPS   FOUR, Y1, Y1; \
	VMAXPS   MFOUR, Y1, Y1; \
	VMULPS   Y1, Y1, Y2; \
	VMOVUPS  A13, Y3; \
	VFMADD213PS A11, Y2, Y3; \
	VFMADD213PS A9, Y2, Y3; \
	VFMADD213PS A7, Y2, Y3; \
	VFMADD213PS A5, Y2, Y3; \
	VFMADD213PS A3, Y2, Y3; \
	VFMADD213PS A1, Y2, Y3; \
	VMULPS   Y1, Y3, Y3; \
	VMOVUPS  B8, Y4; \
	VFMADD213PS B6, Y2, Y4; \
	VFMADD213PS B4, Y2, Y4; \
	VFMADD213PS B2, Y2, Y4; \
	VFMADD213PS B0, Y2, Y4; \
	VDIVPS   Y4, Y3, Y3; \
	VADDPS   ONE, Y3, Y3; \
	VMULPS   HALF, Y0, Y0; \
	VMULPS   Y3, Y0, Y0

// func geluAVX2(c *float32, rows, cols, ld int)
TEXT ·geluAVX2(SB), NOSPLIT, $0-32
	MOVQ c+0(FP), DI
	MOVQ rows+8(FP), BX
	MOVQ cols+16(FP), CX
	MOVQ ld+24(FP), R9
	SHLQ $2, R9
	SHRQ $3, CX

gelurow:
	MOVQ DI, SI
	MOVQ CX, DX

gelucol:
	VMOVUPS (SI), Y0
	GELU8
	VMOVUPS Y0, (SI)
	ADDQ $32, SI
	DECQ DX
	JNZ  gelucol

	ADDQ R9, DI
	DECQ BX
	JNZ  gelurow
	VZEROUPPER
	RET

// exp of the 8 floats in Y0, in place (Cephes expf: n = floor(x·log2 e + 1/2), r = x - n·ln 2,
// exp r by a degree-5 polynomial, times 2^n built in the exponent bits). Y13 holds log2 e.
// Clobbers Y1..Y3.
#define EXP8 \
	VMINPS   EXPHI, Y0, Y0; \
	VMAXPS   EXPLO, Y0, Y0; \
	VMOVAPS  Y0, Y1; \
	VFMADD213PS HALF, Y13, Y1; \
	VROUNDPS $1, Y1, Y1; \
	VFNMADD231PS C1, Y1, Y0; \
	VFNMADD231PS C2, Y1, Y0; \
	VMULPS   Y0, Y0, Y2; \
	VMOVUPS  P0, Y3; \
	VFMADD213PS P1, Y0, Y3; \
	VFMADD213PS P2, Y0, Y3; \
	VFMADD213PS P3, Y0, Y3; \
	VFMADD213PS P4, Y0, Y3; \
	VFMADD213PS P5, Y0, Y3; \
	VFMADD213PS Y0, Y2, Y3; \
	VADDPS   ONE, Y3, Y3; \
	VCVTTPS2DQ Y1, Y1; \
	VPADDD   BIAS127, Y1, Y1; \
	VPSLLD   $23, Y1, Y1; \
	VMULPS   Y1, Y3, Y0

// func softmaxAVX2(x *float32, n int)
TEXT ·softmaxAVX2(SB), NOSPLIT, $0-16
	MOVQ x+0(FP), DI
	MOVQ n+8(FP), CX
	SHRQ $3, CX

	// The maximum, broadcast to Y15.
	MOVQ    DI, SI
	MOVQ    CX, DX
	VMOVUPS (SI), Y15
	ADDQ    $32, SI
	DECQ    DX
	JZ      maxdone

maxloop:
	VMAXPS (SI), Y15, Y15
	ADDQ   $32, SI
	DECQ   DX
	JNZ    maxloop

maxdone:
	VEXTRACTF128 $1, Y15, X0
	VMAXPS       X0, X15, X0
	VPERMILPS    $0x4e, X0, X1
	VMAXPS       X1, X0, X0
	VPERMILPS    $0xb1, X0, X1
	VMAXPS       X1, X0, X0
	VBROADCASTSS X0, Y15

	// exp(x - max) in place, summed in Y14.
	VMOVUPS LOG2E, Y13
	VXORPS  Y14, Y14, Y14
	MOVQ    DI, SI
	MOVQ    CX, DX

exploop:
	VMOVUPS (SI), Y0
	VSUBPS  Y15, Y0, Y0
	EXP8
	VMOVUPS Y0, (SI)
	VADDPS  Y0, Y14, Y14
	ADDQ    $32, SI
	DECQ    DX
	JNZ     exploop

	VEXTRACTF128 $1, Y14, X0
	VADDPS       X0, X14, X0
	VPERMILPS    $0x4e, X0, X1
	VADDPS       X1, X0, X0
	VPERMILPS    $0xb1, X0, X1
	VADDPS       X1, X0, X0
	VMOVSS       ONE, X1
	VDIVSS       X0, X1, X1
	VBROADCASTSS X1, Y15

	// Scale by 1/sum.
	MOVQ DI, SI
	MOVQ CX, DX

scaleloop:
	VMULPS  (SI), Y15, Y0
	VMOVUPS Y0, (SI)
	ADDQ    $32, SI
	DECQ    DX
	JNZ     scaleloop

	VZEROUPPER
	RET
