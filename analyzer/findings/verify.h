/* --verify: clang's -verify convention for analyzer tests. A file states what it expects:
 *   // expected-warning {{GM001}}          a finding on this line whose text contains GM001
 *   // expected-warning@+1 {{leaks}}       ... on the next line (@-N, @N for absolute lines)
 *   // expected-warning 2 {{GM003}}        two such findings
 *   // expected-note@+3 {{first freed}}    a related location of a finding; checked in every
 *                                          file, so a note nobody states fails the test
 *   // expected-note@init.cu:7 {{...}}     a related location in another file (a path, or its
 *                                          last components)
 *   // expected-note {{was cut short}}     a notice about the analysis on this line (a function
 *                                          whose paths were cut short: its first line)
 *   // expected-no-diagnostics             no findings and no notices at all
 *   // expected-notes-unchecked: REASON    opt out of checking related notes (not notices)
 *   // expected-rules-unchecked GM010 GM030: REASON
 *                                          leave these rules' findings and notes out (for the
 *                                          run with every rule enabled)
 * and verification fails on any missing or unexpected finding or note, naming each. */
#ifndef GM_VERIFY_H
#define GM_VERIFY_H

#include "findings/report.h"
#include "support/source.h"

#include <stdio.h>

/* Returns the number of problems, each printed to err. Clang parse errors count as problems. */
int gm_verify_file(const char *path, const gm_source *src, const gm_report *report,
                   int clang_errors, FILE *err);

#endif
