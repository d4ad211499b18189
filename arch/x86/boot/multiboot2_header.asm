; SPDX-License-Identifier: GPL-2.0-or-later
; Multiboot2 header: GRUB finds it in the first 32 KiB of the image.
; The ELF entry point is the 32-bit entry in entry32.asm.

MB2_MAGIC	equ 0xe85250d6
MB2_ARCH_I386	equ 0		; 32-bit protected mode entry

section .multiboot2 progbits alloc noexec nowrite align=8
mb2_header_start:
	dd MB2_MAGIC
	dd MB2_ARCH_I386
	dd mb2_header_end - mb2_header_start
	dd -(MB2_MAGIC + MB2_ARCH_I386 + (mb2_header_end - mb2_header_start))

	; Information request: we need the command line and the memory map;
	; both are optional for the loader, so the request says "optional".
	align 8
	dw 1			; type: information request
	dw 1			; flags: optional
	dd 16			; size
	dd 1			; command line
	dd 6			; memory map

	; End tag.
	align 8
	dw 0
	dw 0
	dd 8
mb2_header_end:
