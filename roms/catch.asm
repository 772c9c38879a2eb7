; Catch: the project's own game, a learning target for the trainer.
;
; A ball (8 x 8) falls from the top of the screen at a random column; the
; player moves a paddle (16 x 8, player 0 at double width) along the bottom
; with the joystick (left / right). A ball that touches the paddle is caught
; (+1), one that passes it is missed (-1); then the next ball falls. A game
; is kBalls balls; after the last one the game is over and play stops until
; the RESET switch starts a new game.
;
; What the rules (kernels/game_rules.hpp, Game::catch_game) read, in RAM:
;   $80 caught   balls caught this game
;   $81 missed   balls missed this game
;   $82 over     1 once the game is over
; The signature "cule-game:catch" at $FFE0 identifies the cartridge
; (cule/rom.cpp); the md5 would change with the assembler's version.
        processor 6502
        include "hardware.inc"

kBalls      = 10        ; balls in a game
kPaddleY    = 176       ; first scanline of the paddle
kPaddleH    = 8
kBallH      = 8
kMissY      = 184       ; a ball this low has passed the paddle
kBallSpeed  = 3         ; scanlines per frame
kPaddleStep = 4         ; pixels per frame
kPaddleMax  = 144       ; 160 - the paddle's 16 pixels
kNoBall     = $F0       ; ball_y that no drawn line reaches

caught  = $80
missed  = $81
over    = $82
paddle  = $83           ; paddle column
ball_x  = $84
ball_y  = $85
lfsr    = $86           ; 8-bit Galois LFSR, stepped once a frame
input   = $87           ; SWCHA as read this frame
drops   = $88           ; balls finished this game

        seg code
        org $F000
start   CLEAN_START
        ; clear the TIA and RAM
        lda #0
        tax
clear   sta $00,x
        inx
        bne clear
        lda #$5A
        sta lfsr
        lda #$0E
        sta COLUPF      ; the ball takes the playfield colour
        lda #$1E
        sta COLUP0
        lda #$30
        sta CTRLPF      ; ball 8 clocks wide
        lda #$05
        sta NUSIZ0      ; player 0 at double width
        jsr new_game

frame   VERTICAL_SYNC
        lda #2
        sta VBLANK
        lda #43         ; 43 * 64 cycles: the rest of the 37 lines of VBLANK
        sta TIM64T

        lda SWCHB
        lsr             ; RESET switch (bit 0, 0 when pressed) into carry
        bcs playing
        jsr new_game
        jmp logic_done
playing lda over
        bne logic_done
        lda SWCHA
        sta input
        bit input       ; N: bit 7 = P0 right (0 when pressed)
        bmi no_right
        lda paddle
        clc
        adc #kPaddleStep
        cmp #kPaddleMax+1
        bcc right_ok
        lda #kPaddleMax
right_ok sta paddle
no_right bit input      ; V: bit 6 = P0 left
        bvs no_left
        lda paddle
        sec
        sbc #kPaddleStep
        bcs left_ok
        lda #0
left_ok sta paddle
no_left bit CXP0FB      ; V: player 0 touched the ball in the frame drawn
        bvc falling
        inc caught
        jsr next_ball
        jmp logic_done
falling lda ball_y
        clc
        adc #kBallSpeed
        sta ball_y
        cmp #kMissY
        bcc logic_done
        inc missed
        jsr next_ball
logic_done
        sta CXCLR
        lda lfsr
        lsr
        bcc no_tap
        eor #$B8
no_tap  sta lfsr

        lda paddle
        ldx #0          ; player 0
        jsr position
        lda ball_x
        ldx #4          ; the ball (RESBL = RESP0 + 4, HMBL = HMP0 + 4)
        jsr position
        sta WSYNC
        sta HMOVE

vblank  lda INTIM
        bne vblank
        sta WSYNC
        sta VBLANK      ; A = 0: the picture starts

        ; 192 lines: each iteration computes line y's ball and paddle
        ; bits, then writes them at the start of the line (in HBLANK).
        ldy #0
line    tya
        sec
        sbc ball_y
        cmp #kBallH     ; carry clear: ball_y <= y < ball_y + kBallH
        lda #0
        bcs no_ball
        lda #2
no_ball tax
        tya
        sec
        sbc #kPaddleY
        cmp #kPaddleH
        lda #0
        bcs no_pad
        lda #$FF
no_pad  sta WSYNC
        stx ENABL
        sta GRP0
        iny
        cpy #192
        bne line

        sta WSYNC
        lda #0
        sta ENABL
        sta GRP0
        lda #2
        sta VBLANK
        SKIP_LINES 29
        jmp frame

; A fresh game: counters cleared, paddle centred, first ball.
new_game
        lda #0
        sta caught
        sta missed
        sta over
        sta drops
        lda #72
        sta paddle
        jmp drop

; The ball in play ended: the next one falls, or the game is over.
next_ball
        inc drops
        lda drops
        cmp #kBalls
        bcc drop
        lda #1
        sta over
        lda #kNoBall
        sta ball_y
        rts
drop    lda #0
        sta ball_y
        lda lfsr        ; column 0..142: low 7 bits plus bits 3-6
        and #$7F
        sta ball_x
        lda lfsr
        lsr
        lsr
        lsr
        and #$0F
        clc
        adc ball_x
        sta ball_x
        rts

; Places object X (0: player 0, 4: ball) at column A: one line; coarse
; position from a loop of 15 colour clocks per round, the rest in HMxx for
; the HMOVE that follows.
position
        sta WSYNC
        sec
.div    sbc #15
        bcs .div
        eor #7
        asl
        asl
        asl
        asl
        sta HMP0,x
        sta RESP0,x
        rts

        org $FFE0
        .byte "cule-game:catch", 0

        org $FFFC
        .word start
        .word start
