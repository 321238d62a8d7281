package io.agentoutcomes.topology.ingest;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replaces credential-like text with {@value #REDACTED} in text that could not be parsed, or that is copied as it
 * came (a rejected record's value, its Kafka headers, an error message quoting the input): values of fields or
 * headers named like a credential ({@code "Authorization": "..."}, {@code api_key=...}, {@code Cookie: ...}) and
 * tokens recognisable on their own ({@code Bearer ...}, {@code sk-...}, {@code sk-ant-...}, JWTs, AWS, GitHub,
 * Slack and Google keys). Rejected input cannot be parsed reliably, so this works on the text, not on a tree.
 */
public final class CredentialScrubber {
    public static final String REDACTED = "[redacted]";

    /** A quoted JSON key and its value: a string (possibly unterminated, in broken JSON) or a bare token. */
    private static final Pattern JSON_FIELD = Pattern.compile(
            "(\"([^\"\\\\\\s]{1,200})\"\\s*:\\s*)(\"[^\"\\\\]*+(?:\\\\.[^\"\\\\]*+)*+\"?|[^\\s,}\\]\"]++)");
    /** {@code name: value} or {@code name=value} in free text; the value may start with an auth scheme. */
    private static final Pattern TEXT_FIELD = Pattern.compile(
            "(?<![\\w.-])([A-Za-z][\\w.-]{0,100})(\\s*[:=]\\s*)((?i:(?:bearer|basic|token|digest)\\s+)?[^\\s,;&\"'}\\]]+)");
    private static final Pattern TOKEN = Pattern.compile(
            "(?i)(?<=\\b(?:bearer|basic)\\s)[^\\s\"',;}\\]]+"
                    + "|\\bsk-[A-Za-z0-9_-]{3,}"
                    + "|\\beyJ[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]*"
                    + "|\\b(?:AKIA|ASIA)[0-9A-Z]{16}\\b"
                    + "|\\bgh[pousr]_[A-Za-z0-9]{20,}"
                    + "|\\bxox[abprs]-[A-Za-z0-9-]{10,}"
                    + "|\\bAIza[0-9A-Za-z_-]{30,}");
    private static final Pattern CREDENTIAL_NAME = Pattern.compile(
            "(proxy-)?authorization|(set-)?cookie|.*(secret|password|passwd|pwd|credential|session|api[-_]?key"
                    + "|access[-_]?key|private[-_]?key|bearer|auth[-_]?token|access[-_]?token|refresh[-_]?token"
                    + "|id[-_]?token|client[-_]?secret).*");

    private CredentialScrubber() {
    }

    /** Whether a field or header of this name (any case) holds a credential. */
    public static boolean isCredentialName(String name) {
        return CREDENTIAL_NAME.matcher(name.toLowerCase(Locale.ROOT).trim()).matches();
    }

    /** The text with every credential-like value replaced; the same instance when nothing was found. */
    public static String scrub(String text) {
        String scrubbed = replaceNamed(JSON_FIELD, text, 2, 3, true);
        scrubbed = replaceNamed(TEXT_FIELD, scrubbed, 1, 3, false);
        Matcher tokens = TOKEN.matcher(scrubbed);
        if (tokens.find()) {
            scrubbed = tokens.replaceAll(REDACTED);
        }
        return scrubbed.equals(text) ? text : scrubbed;
    }

    private static String replaceNamed(Pattern pattern, String text, int nameGroup, int valueGroup, boolean json) {
        Matcher matcher = pattern.matcher(text);
        StringBuilder out = new StringBuilder(text.length());
        boolean changed = false;
        while (matcher.find()) {
            String value = matcher.group(valueGroup);
            if (isCredentialName(matcher.group(nameGroup)) && !value.equals(REDACTED) && !value.equals("\"" + REDACTED + "\"")) {
                String replacement = json && value.startsWith("\"") ? "\"" + REDACTED + "\"" : REDACTED;
                matcher.appendReplacement(out, Matcher.quoteReplacement(text.substring(matcher.start(), matcher.start(valueGroup))
                        + replacement));
                changed = true;
            }
        }
        if (!changed) {
            return text;
        }
        matcher.appendTail(out);
        return out.toString();
    }
}
