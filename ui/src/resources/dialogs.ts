/**
 * What a list needs only once someone acts — the create/edit form, an action's input dialog, the
 * detail drawer — in one chunk of its own (with the form engine, the date picker and core's
 * validation), so the first list shows sooner (QUALITY.md: ≤ 400 KB before the first list).
 */
export { ActionInputModal } from './ActionInputModal';
export { RecordDrawer } from './RecordDrawer';
export { ResourceForm } from './ResourceForm';
