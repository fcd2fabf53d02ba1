/**
 * Schedule policies: which thread takes the next step. Optimal DPOR with wakeup trees and sleep sets, random,
 * replay, marker schedules and one-after-the-other orders. A policy sees recorded steps and choices only.
 */
package dev.frontrun.internal.engine.policy;
