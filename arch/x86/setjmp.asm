; SPDX-License-Identifier: GPL-2.0-or-later
; Non-local return for the benchmark watchdog: the timer interrupt of an
; overrunning benchmark jumps back to the harness's guard point.
;
; struct jmp_buf layout (include/kfront/watchdog.h):
;   rbx, rbp, r12, r13, r14, r15, rsp, rip

; arch_setjmp runs before every benchmark call, between a point's regions:
; it lies on the measured path with the C code marked __measured_path
; (include/kfront/compiler.h), which the linker script places first.
section .text.measured progbits alloc exec nowrite align=16
bits 64

; int arch_setjmp(struct arch_jmp_buf *buf): 0 now, 1 when jumped to.
global arch_setjmp
arch_setjmp:
	mov [rdi + 0], rbx
	mov [rdi + 8], rbp
	mov [rdi + 16], r12
	mov [rdi + 24], r13
	mov [rdi + 32], r14
	mov [rdi + 40], r15
	lea rax, [rsp + 8]		; the caller's rsp after our return
	mov [rdi + 48], rax
	mov rax, [rsp]			; our return address
	mov [rdi + 56], rax
	xor eax, eax
	ret

section .text
; void arch_longjmp(struct arch_jmp_buf *buf) - never returns.
global arch_longjmp
arch_longjmp:
	mov rbx, [rdi + 0]
	mov rbp, [rdi + 8]
	mov r12, [rdi + 16]
	mov r13, [rdi + 24]
	mov r14, [rdi + 32]
	mov r15, [rdi + 40]
	mov rsp, [rdi + 48]
	mov eax, 1
	jmp [rdi + 56]
