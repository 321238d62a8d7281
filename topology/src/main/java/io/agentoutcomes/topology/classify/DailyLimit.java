package io.agentoutcomes.topology.classify;

/**
 * What a retry does when a provider's daily rate-limit window is exhausted ({@code policy.daily-limit}): a daily
 * limit is not over within the hour, so switching providers is the default; waiting for the reset is the alternative, within the delay bound.
 */
public enum DailyLimit {
    /** Hand the retry back at once, marked {@code SWITCH_PROVIDER}, with the window and its reset time. */
    SWITCH,
    /** Wait for the window's reset like any other exhausted window. */
    WAIT
}
