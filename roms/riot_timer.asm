; RIOT timer test cartridge: reads the interval timer a known number of
; cycles after each write and stores what it read in RAM, then shows frames.
;   $80  TIM8T  10, INTIM  4 cycles later
;   $81  TIM1T   1, TIMINT 4 cycles later (expired)
;   $82  TIM64T  2, INTIM  4 cycles later
;   $83  T1024T  1, INTIM  4 cycles later
;   $84  TIM1T 100, INTIM 24 cycles later
;   $85  TIM8T  10, TIMINT 4 cycles later (running)
        processor 6502
        include "hardware.inc"

        seg code
        org $F000
start   CLEAN_START

        lda #10
        sta TIM8T
        lda INTIM
        sta $80

        lda #1
        sta TIM1T
        lda TIMINT
        sta $81

        lda #2
        sta TIM64T
        lda INTIM
        sta $82

        lda #1
        sta T1024T
        lda INTIM
        sta $83

        lda #100
        sta TIM1T
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        lda INTIM
        sta $84

        lda #10
        sta TIM8T
        lda TIMINT
        sta $85

frame   VERTICAL_SYNC
        SKIP_LINES 200
        SKIP_LINES 59
        jmp frame

        org $FFFC
        .word start
        .word start
