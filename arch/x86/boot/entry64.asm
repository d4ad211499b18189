; SPDX-License-Identifier: GPL-2.0-or-later
; 64-bit entry in the higher half: segments, the boot CPU's stack (with a
; guard page below it, see arch/x86/paging.c), then C.

%include "boot_defs.inc"

extern kmain
extern x86_cpu_stacks

section .text
bits 64
global start64
start64:
	mov ax, BOOT_DS
	mov ds, ax
	mov es, ax
	mov ss, ax
	xor ax, ax
	mov fs, ax
	mov gs, ax

	; top of x86_cpu_stacks[0][STACK_BOOT]: guard page, then the stack
	mov rsp, x86_cpu_stacks + 4096 + BOOT_STACK_SIZE
	xor ebp, ebp
	; kmain(magic, physical address of multiboot2 information). 32-bit
	; moves zero the upper halves, which are undefined after the switch.
	mov eax, esi			; magic
	mov edx, edi			; information address
	mov edi, eax
	mov esi, edx
	call kmain
.hang:
	cli
	hlt
	jmp .hang
