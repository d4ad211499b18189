; SPDX-License-Identifier: GPL-2.0-or-later
; Entry stubs for the 32 CPU exception vectors. Each stub makes the frame
; uniform (a zero error code where the CPU pushes none), saves every
; general register as struct pt_regs (arch/x86/include/asm/traps.h) and
; calls x86_trap(). If that returns (an exception-table fixup), the
; registers are restored and the interrupted code resumes at regs->rip.

extern x86_trap

section .text
bits 64

%macro TRAP_NOERR 1
trap_stub_%1:
	push 0
	push %1
	jmp trap_common
%endmacro

%macro TRAP_ERR 1
trap_stub_%1:
	push %1
	jmp trap_common
%endmacro

; Vectors that push an error code: 8, 10-14, 17, 21, 29, 30.
TRAP_NOERR 0
TRAP_NOERR 1
TRAP_NOERR 2
TRAP_NOERR 3
TRAP_NOERR 4
TRAP_NOERR 5
TRAP_NOERR 6
TRAP_NOERR 7
TRAP_ERR   8
TRAP_NOERR 9
TRAP_ERR   10
TRAP_ERR   11
TRAP_ERR   12
TRAP_ERR   13
TRAP_ERR   14
TRAP_NOERR 15
TRAP_NOERR 16
TRAP_ERR   17
TRAP_NOERR 18
TRAP_NOERR 19
TRAP_NOERR 20
TRAP_ERR   21
TRAP_NOERR 22
TRAP_NOERR 23
TRAP_NOERR 24
TRAP_NOERR 25
TRAP_NOERR 26
TRAP_NOERR 27
TRAP_NOERR 28
TRAP_ERR   29
TRAP_ERR   30
TRAP_NOERR 31

trap_common:
	push rax
	push rbx
	push rcx
	push rdx
	push rsi
	push rdi
	push rbp
	push r8
	push r9
	push r10
	push r11
	push r12
	push r13
	push r14
	push r15
	cld
	mov rdi, rsp			; struct pt_regs *
	call x86_trap
	pop r15
	pop r14
	pop r13
	pop r12
	pop r11
	pop r10
	pop r9
	pop r8
	pop rbp
	pop rdi
	pop rsi
	pop rdx
	pop rcx
	pop rbx
	pop rax
	add rsp, 16			; vector and error code
	iretq

section .rodata
align 8
global trap_stubs
trap_stubs:
%assign i 0
%rep 32
	dq trap_stub_%+i
%assign i i + 1
%endrep
