// zoneoracle's own do-nothing stand-in (see Sentry.java).
package io.sentry;

public final class Breadcrumb {
    public Breadcrumb() {}
    public Breadcrumb(String message) {}
    public void setData(String key, Object value) {}
    public void setMessage(String message) {}
    public void setCategory(String category) {}
}
