; Frames of uneven lengths, for the draw-ahead tests (tests/test_draw_ahead.cpp).
; A cycle of seven kinds of frame, each of some drawn lines, then:
;   overscan  30 lines, as a normal frame
;   VSYNC     the next frame's right away: the frame ends well short of the
;             picture's last row
;   spin      some 30,000 instructions with no TIA access: ALE's frame runs
;             out of instructions (ends partial) there, and its rows below
;             keep what the buffer held. The frame goes on in the next ALE
;             frame and ends at its first TIA write (past the most scanlines
;             a frame may have); the next VSYNC's lines then make an ALE
;             frame of their own, above the picture.
; Every drawn line has a background colour of its own, which differs from
; frame to frame. The cycle makes 11 ALE frames, so that steps of 3 frames
; and of 4 start at each of them in turn.
;   $80   frames shown (counts up)
;   $81   this frame's kind (0-6)
        processor 6502
        include "hardware.inc"

        seg code
        org $F000
start   CLEAN_START
        lda #0
        sta $80
        sta $81

frame   VERTICAL_SYNC
        SKIP_LINES 37
        ldy $81
        ldx lines,y
        lda $80
        asl
        asl
        asl
        asl                     ; colours step by 16 from frame to frame
draw    sta WSYNC
        sta COLUBK
        clc
        adc #2
        dex
        bne draw
        lda ends,y
        beq over
        lsr
        beq next                ; VSYNC
        ldy #60                 ; 60 x 256 turns of DEX BNE: 30,720 instructions
spin    dex
        bne spin
        dey
        bne spin
        beq next
over    SKIP_LINES 30
next    inc $80
        ldy $81
        iny
        cpy #7
        bne kind
        ldy #0
kind    sty $81
        jmp frame

; Each kind's drawn lines, and how it ends: 0 overscan, 1 VSYNC, 2 spin.
lines   .byte 192, 100, 192, 40, 20, 192, 192
ends    .byte 0, 1, 0, 2, 2, 0, 0

        org $FFFC
        .word start
        .word start
