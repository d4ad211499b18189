; SPDX-License-Identifier: GPL-2.0-or-later
; 32-bit entry from GRUB (multiboot2), boot page tables, switch to long
; mode, jump to the higher half. Runs at its physical load address.
;
; Boot page tables (all 2 MiB pages, replaced by arch/x86/paging.c):
;   identity map of 0..4 GiB, so the loader's information stays reachable;
;   0xffffffff80000000 + 0..1 GiB -> physical 0..1 GiB (the kernel image).

%include "boot_defs.inc"

extern start64

section .boot.text progbits alloc exec nowrite align=16
bits 32
global start32
start32:
	cli
	cld
	mov esp, boot_stack32_top
	mov esi, eax			; multiboot2 magic
	mov edi, ebx			; physical address of the information

	cmp esi, MB2_BOOTLOADER_MAGIC
	jne .no_multiboot

	; Long mode and NX are required.
	mov eax, 0x80000000
	cpuid
	cmp eax, 0x80000001
	jb .no_long_mode
	mov eax, 0x80000001
	cpuid
	test edx, 1 << 29		; LM
	jz .no_long_mode
	test edx, 1 << 20		; NX
	jz .no_nx

	call build_boot_page_tables

	mov eax, cr4
	or eax, CR4_PAE | CR4_PGE
	mov cr4, eax
	mov eax, boot_pml4
	mov cr3, eax

	mov ecx, MSR_EFER
	rdmsr
	or eax, EFER_LME | EFER_NXE
	wrmsr

	mov eax, cr0
	or eax, CR0_PG | CR0_WP | CR0_PE
	mov cr0, eax

	lgdt [boot_gdt_ptr]
	jmp BOOT_CS64:start64_low

.no_multiboot:
	mov ebx, msg_no_mb2
	jmp early_fail32
.no_long_mode:
	mov ebx, msg_no_lm
	jmp early_fail32
.no_nx:
	mov ebx, msg_no_nx
	jmp early_fail32

; Fill the boot PML4/PDPT/PD tables. Clobbers eax, ecx, edx.
build_boot_page_tables:
	; PML4[0] -> identity PDPT, PML4[511] -> higher-half PDPT
	mov eax, boot_pdpt_low
	or eax, PTE_P | PTE_W
	mov [boot_pml4], eax
	mov eax, boot_pdpt_high
	or eax, PTE_P | PTE_W
	mov [boot_pml4 + 511 * 8], eax

	; identity PDPT[0..3] -> the four page directories
	xor ecx, ecx
.pdpt_loop:
	mov eax, ecx
	shl eax, 12
	add eax, boot_pd
	or eax, PTE_P | PTE_W
	mov [boot_pdpt_low + ecx * 8], eax
	inc ecx
	cmp ecx, 4
	jb .pdpt_loop

	; higher-half PDPT[510] -> first page directory (physical 0..1 GiB)
	mov eax, boot_pd
	or eax, PTE_P | PTE_W
	mov [boot_pdpt_high + 510 * 8], eax

	; 2048 large pages covering 0..4 GiB
	xor ecx, ecx
.pd_loop:
	mov eax, ecx
	shl eax, 21
	or eax, PTE_P | PTE_W | PTE_PS
	mov edx, ecx
	shr edx, 11			; bits 32+ of the physical address
	mov [boot_pd + ecx * 8], eax
	mov [boot_pd + ecx * 8 + 4], edx
	inc ecx
	cmp ecx, 2048
	jb .pd_loop
	ret

; Print the NUL-terminated string at ebx on COM1 and stop. No checks:
; this only runs when the machine cannot run kfront at all.
early_fail32:
.next:
	mov al, [ebx]
	test al, al
	jz .stop
	mov dx, 0x3f8
	out dx, al
	inc ebx
	jmp .next
.stop:
	hlt
	jmp .stop

bits 64
start64_low:
	; Still at the physical address: jump to the higher-half copy.
	mov rax, start64
	jmp rax

section .boot.data progbits alloc noexec write align=16
msg_no_mb2:	db "kfront: not loaded by a multiboot2 loader", 13, 10, 0
msg_no_lm:	db "kfront: this CPU has no long mode (x86_64)", 13, 10, 0
msg_no_nx:	db "kfront: this CPU has no NX bit", 13, 10, 0

align 16
boot_gdt:
	dq 0
	dq 0x00af9a000000ffff		; 64-bit code, ring 0
	dq 0x00cf92000000ffff		; data, ring 0
boot_gdt_end:
boot_gdt_ptr:
	dw boot_gdt_end - boot_gdt - 1
	dd boot_gdt

section .boot.bss nobits alloc noexec write align=4096
boot_pml4:	resb 4096
boot_pdpt_low:	resb 4096
boot_pdpt_high:	resb 4096
boot_pd:	resb 4096 * 4
boot_stack32:	resb 1024
boot_stack32_top:
