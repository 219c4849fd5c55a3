//go:build arm64 && !purego

#include "textflag.h"

// FMLAE is FMLA Vd.4S, Vn.4S, Vm.S[lane] (Vd += Vn · Vm[lane]), the by-element form of the fused
// multiply-add, which the Go assembler does not spell: the single-precision vector encoding
// 0x4F801000 | L<<21 | Vm<<16 | H<<11 | Vn<<5 | Vd, where lane = H:L (Arm Architecture Reference
// Manual, FMLA (by element)).
#define FMLAE(d, n, m, lane) WORD $(0x4F801000 | (((lane)&1)<<21) | (((lane)>>1)<<11) | ((m)<<16) | ((n)<<5) | (d))

// KSTEP is one step of k: the 16 panel values in two halves (V30, V31), each multiplied by the A value
// of every row (lane `lane` of V24–V29) into that row's accumulators (row r in V4r … V4r+3).
#define KSTEP(lane) \
	VLD1.P 32(R8), [V30.S4, V31.S4]; \
	FMLAE(0, 30, 24, lane); FMLAE(1, 31, 24, lane); \
	FMLAE(4, 30, 25, lane); FMLAE(5, 31, 25, lane); \
	FMLAE(8, 30, 26, lane); FMLAE(9, 31, 26, lane); \
	FMLAE(12, 30, 27, lane); FMLAE(13, 31, 27, lane); \
	FMLAE(16, 30, 28, lane); FMLAE(17, 31, 28, lane); \
	FMLAE(20, 30, 29, lane); FMLAE(21, 31, 29, lane); \
	VLD1.P 32(R8), [V30.S4, V31.S4]; \
	FMLAE(2, 30, 24, lane); FMLAE(3, 31, 24, lane); \
	FMLAE(6, 30, 25, lane); FMLAE(7, 31, 25, lane); \
	FMLAE(10, 30, 26, lane); FMLAE(11, 31, 26, lane); \
	FMLAE(14, 30, 27, lane); FMLAE(15, 31, 27, lane); \
	FMLAE(18, 30, 28, lane); FMLAE(19, 31, 28, lane); \
	FMLAE(22, 30, 29, lane); FMLAE(23, 31, 29, lane)

// func tile6x16NEON(kc int, a *float32, lda int, p *float32, c *float32, ldc int)
//
// C[0:6][0:16] += A[0:6][0:kc] · P[0:kc][0:16]. A and C have row strides lda and ldc (in floats); P
// is a packed panel (16 floats per k). The accumulators V0–V23 start as C (row r in V4r … V4r+3), so
// the sum needs no vector add (which the Go assembler does not spell either). R1–R6 walk the six
// rows of A; the main loop reads four values of each row at once into V24–V29 and uses them lane by
// lane; the tail loop (kc mod 4) replicates one value per row into all lanes and uses lane 0.
TEXT ·tile6x16NEON(SB), NOSPLIT, $0-48
	MOVD kc+0(FP), R0
	MOVD a+8(FP), R1
	MOVD lda+16(FP), R7
	MOVD p+24(FP), R8
	MOVD c+32(FP), R9
	MOVD ldc+40(FP), R10
	LSL  $2, R7
	LSL  $2, R10
	ADD  R7, R1, R2
	ADD  R7, R2, R3
	ADD  R7, R3, R4
	ADD  R7, R4, R5
	ADD  R7, R5, R6

	MOVD R9, R13
	VLD1 (R13), [V0.S4, V1.S4, V2.S4, V3.S4]
	ADD  R10, R13
	VLD1 (R13), [V4.S4, V5.S4, V6.S4, V7.S4]
	ADD  R10, R13
	VLD1 (R13), [V8.S4, V9.S4, V10.S4, V11.S4]
	ADD  R10, R13
	VLD1 (R13), [V12.S4, V13.S4, V14.S4, V15.S4]
	ADD  R10, R13
	VLD1 (R13), [V16.S4, V17.S4, V18.S4, V19.S4]
	ADD  R10, R13
	VLD1 (R13), [V20.S4, V21.S4, V22.S4, V23.S4]

	LSR  $2, R0, R11
	AND  $3, R0, R12
	CBZ  R11, tail

loop4:
	VLD1.P 16(R1), [V24.S4]
	VLD1.P 16(R2), [V25.S4]
	VLD1.P 16(R3), [V26.S4]
	VLD1.P 16(R4), [V27.S4]
	VLD1.P 16(R5), [V28.S4]
	VLD1.P 16(R6), [V29.S4]
	KSTEP(0)
	KSTEP(1)
	KSTEP(2)
	KSTEP(3)
	SUB  $1, R11
	CBNZ R11, loop4

tail:
	CBZ R12, store

loop1:
	VLD1R.P 4(R1), [V24.S4]
	VLD1R.P 4(R2), [V25.S4]
	VLD1R.P 4(R3), [V26.S4]
	VLD1R.P 4(R4), [V27.S4]
	VLD1R.P 4(R5), [V28.S4]
	VLD1R.P 4(R6), [V29.S4]
	KSTEP(0)
	SUB  $1, R12
	CBNZ R12, loop1

store:
	MOVD R9, R13
	VST1 [V0.S4, V1.S4, V2.S4, V3.S4], (R13)
	ADD  R10, R13
	VST1 [V4.S4, V5.S4, V6.S4, V7.S4], (R13)
	ADD  R10, R13
	VST1 [V8.S4, V9.S4, V10.S4, V11.S4], (R13)
	ADD  R10, R13
	VST1 [V12.S4, V13.S4, V14.S4, V15.S4], (R13)
	ADD  R10, R13
	VST1 [V16.S4, V17.S4, V18.S4, V19.S4], (R13)
	ADD  R10, R13
	VST1 [V20.S4, V21.S4, V22.S4, V23.S4], (R13)
	RET

// func dotNEON(a, b *float32, n int, sums *[4]float32)
//
// Four partial sums of Σ a[i]·b[i] for n a multiple of 16, in four vector accumulators (sixteen
// independent chains) folded into one vector at the end by multiply-adds with 1.0, which are exact
// additions; the caller adds the four lanes.
TEXT ·dotNEON(SB), NOSPLIT, $0-32
	MOVD a+0(FP), R0
	MOVD b+8(FP), R1
	MOVD n+16(FP), R2
	MOVD sums+24(FP), R3
	VEOR V0.B16, V0.B16, V0.B16
	VEOR V1.B16, V1.B16, V1.B16
	VEOR V2.B16, V2.B16, V2.B16
	VEOR V3.B16, V3.B16, V3.B16
	LSR  $4, R2
	CBZ  R2, dotdone

dotloop:
	VLD1.P 64(R0), [V4.S4, V5.S4, V6.S4, V7.S4]
	VLD1.P 64(R1), [V8.S4, V9.S4, V10.S4, V11.S4]
	VFMLA  V8.S4, V4.S4, V0.S4
	VFMLA  V9.S4, V5.S4, V1.S4
	VFMLA  V10.S4, V6.S4, V2.S4
	VFMLA  V11.S4, V7.S4, V3.S4
	SUB    $1, R2
	CBNZ   R2, dotloop

dotdone:
	FMOVS $(1.0), F16
	VDUP  V16.S[0], V16.S4
	VFMLA V16.S4, V1.S4, V0.S4
	VFMLA V16.S4, V3.S4, V2.S4
	VFMLA V16.S4, V2.S4, V0.S4
	VST1  [V0.S4], (R3)
	RET

// func axpyNEON(alpha float32, x, y *float32, n int)
//
// y[i] += alpha·x[i] for n a multiple of 16.
TEXT ·axpyNEON(SB), NOSPLIT, $0-32
	FMOVS alpha+0(FP), F16
	MOVD  x+8(FP), R0
	MOVD  y+16(FP), R1
	MOVD  n+24(FP), R2
	VDUP  V16.S[0], V16.S4
	LSR   $4, R2
	CBZ   R2, axpydone

axpyloop:
	VLD1.P 64(R0), [V0.S4, V1.S4, V2.S4, V3.S4]
	VLD1   (R1), [V4.S4, V5.S4, V6.S4, V7.S4]
	VFMLA  V16.S4, V0.S4, V4.S4
	VFMLA  V16.S4, V1.S4, V5.S4
	VFMLA  V16.S4, V2.S4, V6.S4
	VFMLA  V16.S4, V3.S4, V7.S4
	VST1.P [V4.S4, V5.S4, V6.S4, V7.S4], 64(R1)
	SUB    $1, R2
	CBNZ   R2, axpyloop

axpydone:
	RET
