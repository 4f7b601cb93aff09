/**
 * ISO 3166 countries with their English names. Every lookup of the sandbox is in English, so only that
 * locale is registered: the package's default entry registers all of its 80 (about 900 KB read at start-up).
 */
import countries from 'i18n-iso-countries/index.js';
import english from 'i18n-iso-countries/langs/en.json' with { type: 'json' };

countries.registerLocale(english);

export { countries };
