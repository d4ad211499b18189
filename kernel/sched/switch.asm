; SPDX-License-Identifier: GPL-2.0-or-later
; Kernel thread context switch: callee-saved registers and the stack pointer.
;
; SysV AMD64 calling convention, no absolute addresses: the same object
; links into the kernel (mcmodel=kernel) and into a PIE host test.

bits 64
default rel

; struct task starts with thread.sp (checked by a BUILD_BUG_ON in core.c)
TASK_THREAD_SP	equ 0

section .text

; struct task *__switch_to_asm(struct task *prev, struct task *next)
;
; Everything the ABI lets a callee clobber is already dead at the call
; site, so only rbx, rbp and r12-r15 travel on the old stack. Returns, on
; next's stack, the task that switched to it (rax = that switch's prev).
global __switch_to_asm:function (__switch_to_asm.end - __switch_to_asm)
__switch_to_asm:
	push	rbp
	push	rbx
	push	r12
	push	r13
	push	r14
	push	r15
	mov	[rdi + TASK_THREAD_SP], rsp
	mov	rsp, [rsi + TASK_THREAD_SP]
	mov	rax, rdi
	pop	r15
	pop	r14
	pop	r13
	pop	r12
	pop	rbx
	pop	rbp
	ret
.end:

; First return of a new thread (see struct kthread_frame): r12 holds the
; C entry point, rax the previous task. Clear rbp so backtraces end here.
global ret_from_kthread:function (ret_from_kthread.end - ret_from_kthread)
ret_from_kthread:
	mov	rdi, rax
	xor	ebp, ebp
	and	rsp, -16
	call	r12
	ud2			; the entry ends in kthread_exit() and never returns
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
