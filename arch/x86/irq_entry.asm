; SPDX-License-Identifier: GPL-2.0-or-later
; Entry stubs of the two interrupt vectors kfront uses: the local APIC
; timer (the benchmark watchdog) and the APIC's spurious vector.

extern watchdog_interrupt

section .text
bits 64

; Vector WATCHDOG_VECTOR. watchdog_interrupt() does not return when it
; ends an overrunning benchmark; otherwise (a late, stale expiry) the
; interrupted code resumes here with its registers intact.
global watchdog_irq_entry
watchdog_irq_entry:
	push rax
	push rcx
	push rdx
	push rsi
	push rdi
	push r8
	push r9
	push r10
	push r11
	sub rsp, 8			; 16-byte alignment for the C call
	cld
	call watchdog_interrupt
	add rsp, 8
	pop r11
	pop r10
	pop r9
	pop r8
	pop rdi
	pop rsi
	pop rdx
	pop rcx
	pop rax
	iretq

; Spurious interrupts need no EOI and no work.
global spurious_irq_entry
spurious_irq_entry:
	iretq
