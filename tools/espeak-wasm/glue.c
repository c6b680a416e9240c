/*
 * Presenter Studio: a flat C interface to libespeak-ng for a WebAssembly (WASI) build.
 * Synthesis fills one growing PCM buffer and one event table that JavaScript reads straight
 * from linear memory, so no call crosses back into JavaScript while espeak speaks.
 *
 * Copyright (C) 2026 Presenter Studio contributors. GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <espeak-ng/speak_lib.h>

#define EXPORT(name) __attribute__((export_name(#name)))

/* One event as JavaScript reads it: 8 int32 words. */
typedef struct {
	int type, text_position, length, audio_position, number;
	char name[8];
	int pad;
} ps_event;

static short *pcm;
static int pcm_len, pcm_cap;
static ps_event *evs;
static int ev_len, ev_cap;
static int sample_rate;
static int rate = espeakRATE_NORMAL, pitch = 50;
static char *ipa;
static size_t ipa_len;

static int grow(void **p, int *cap, int need, int size) {
	if (need <= *cap) return 1;
	int n = *cap ? *cap : 4096;
	while (n < need) n *= 2;
	void *q = realloc(*p, (size_t)n * size);
	if (!q) return 0;
	*p = q;
	*cap = n;
	return 1;
}

static int on_synth(short *wav, int n, espeak_EVENT *e) {
	if (wav && n > 0) {
		if (!grow((void **)&pcm, &pcm_cap, pcm_len + n, sizeof(short))) return 1;
		memcpy(pcm + pcm_len, wav, (size_t)n * sizeof(short));
		pcm_len += n;
	}
	for (; e && e->type != espeakEVENT_LIST_TERMINATED; e++) {
		if (!grow((void **)&evs, &ev_cap, ev_len + 1, sizeof(ps_event))) return 1;
		ps_event *o = &evs[ev_len++];
		memset(o, 0, sizeof *o);
		o->type = e->type;
		o->text_position = e->text_position;
		o->length = e->length;
		o->audio_position = e->audio_position;
		if (e->type == espeakEVENT_WORD || e->type == espeakEVENT_SENTENCE) o->number = e->id.number;
		else if (e->type == espeakEVENT_PHONEME) memcpy(o->name, e->id.string, 8);
	}
	return 0;
}

/* `dir` holds espeak-ng-data/. Returns the sample rate, or a negative espeak error. */
EXPORT(ps_init) int ps_init(const char *dir) {
	sample_rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 100, dir,
		espeakINITIALIZE_PHONEME_EVENTS | espeakINITIALIZE_PHONEME_IPA | espeakINITIALIZE_DONT_EXIT);
	return sample_rate;
}

EXPORT(ps_set_voice) int ps_set_voice(const char *name) { return espeak_SetVoiceByName(name); }
EXPORT(ps_set_rate) void ps_set_rate(int r) { rate = r; }
EXPORT(ps_set_pitch) void ps_set_pitch(int p) { pitch = p; }

/* A script is plain text: no SSML and no [[phoneme]] input (a script's "<Enter>" or "a<b" would be
 * read as a tag and dropped, "[[draft]]" as phoneme codes, while the captions show them).
 * espeak says nothing for "<", ">" and "=" in plain text, yet the captions show them: they are
 * spoken by their names in the voice's language ("less than"), as its character mode does. */
static const wchar_t SPOKEN_SYMBOLS[] = L"<>=";

static void speak_symbols(void) {
	espeak_SetPunctuationList(SPOKEN_SYMBOLS);
	espeak_SetParameter(espeakPUNCTUATION, espeakPUNCT_SOME, 0);
}

EXPORT(ps_synth) int ps_synth(const char *text) {
	pcm_len = 0;
	ev_len = 0;
	espeak_SetSynthCallback(on_synth);
	espeak_SetParameter(espeakRATE, rate, 0);
	espeak_SetParameter(espeakVOLUME, 100, 0);
	espeak_SetParameter(espeakPITCH, pitch, 0);
	espeak_SetParameter(espeakRANGE, 50, 0);
	speak_symbols();
	int rc = espeak_Synth(text, strlen(text) + 1, 0, POS_CHARACTER, 0, espeakCHARS_UTF8, NULL, NULL);
	espeak_SetSynthCallback(NULL);
	return rc;
}

EXPORT(ps_pcm) short *ps_pcm(void) { return pcm; }
EXPORT(ps_pcm_length) int ps_pcm_length(void) { return pcm_len; }
EXPORT(ps_events) ps_event *ps_events(void) { return evs; }
EXPORT(ps_event_count) int ps_event_count(void) { return ev_len; }

/* Phonemes of the text in IPA, '_' between phonemes (what neural voices are fed). */
EXPORT(ps_ipa) int ps_ipa(const char *text) {
	free(ipa);
	ipa = NULL;
	ipa_len = 0;
	FILE *f = open_memstream(&ipa, &ipa_len);
	if (!f) return -1;
	espeak_SetSynthCallback(NULL);
	speak_symbols();
	espeak_SetPhonemeTrace((1 << 1) | ('_' << 8), f);
	int rc = espeak_Synth(text, strlen(text) + 1, 0, POS_CHARACTER, 0, 0, NULL, NULL);
	espeak_SetPhonemeTrace(0, NULL);
	fclose(f);
	return rc;
}
EXPORT(ps_ipa_text) const char *ps_ipa_text(void) { return ipa ? ipa : ""; }

EXPORT(ps_alloc) void *ps_alloc(int n) { return malloc((size_t)n); }
EXPORT(ps_free) void ps_free(void *p) { free(p); }
