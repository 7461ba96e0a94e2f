/**
 * Domain areas that extend the generic resource engine (action handlers, storage hooks). Each
 * registers itself when its `resource.ts` is imported; add one line per area here. The engine's
 * plugin imports this file, and so does anything that writes through the engine outside the
 * server (the demo-data seeders), so both see the same handlers and hooks.
 */
import './community/resource.js';
import './crm/resource.js';
import './merchant/resource.js';
import './platform-config/resource.js';
import './users/resource.js';
