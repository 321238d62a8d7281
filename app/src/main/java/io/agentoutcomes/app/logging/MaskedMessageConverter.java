package io.agentoutcomes.app.logging;

import ch.qos.logback.classic.pattern.MessageConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;

/** {@code %msg} of the text format, with secrets hidden ({@link LogMasking}). */
public final class MaskedMessageConverter extends MessageConverter {
    @Override
    public String convert(ILoggingEvent event) {
        return LogMasking.mask(super.convert(event));
    }
}
