; TIA test cartridge: a constant playfield (PF0 $A0, PF1 $C3, PF2 $81) on
; every drawn line, mirrored on the lines after the first 96 (CTRLPF bit 0),
; and player 0 (GRP0 $FF) over it. At the start of each frame the collision
; latches of the frame before are stored, then cleared:
;   $80 CXP0FB (P0-PF in bit 7)   $81 CXM1FB (M1 is never enabled)
        processor 6502
        include "hardware.inc"

        seg code
        org $F000
start   CLEAN_START
        lda #0
        ldx #$80
clear   sta $00,x
        inx
        bne clear

        lda #$1E
        sta COLUPF
        lda #$00
        sta COLUBK
        lda #$44
        sta COLUP0
        lda #$A0
        sta PF0
        lda #$C3
        sta PF1
        lda #$81
        sta PF2

frame   VERTICAL_SYNC
        lda CXP0FB
        sta $80
        lda CXM1FB
        sta $81
        sta CXCLR
        lda #0
        sta CTRLPF
        sta GRP0
        sta WSYNC
        ; player 0 at the left of the screen
        SKIP_LINES 36
        sta RESP0
        lda #$FF
        sta GRP0
        SKIP_LINES 96
        lda #1
        sta CTRLPF
        SKIP_LINES 96
        lda #0
        sta GRP0
        SKIP_LINES 30
        jmp frame

        org $FFFC
        .word start
        .word start
