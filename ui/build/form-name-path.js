/**
 * antd's `toNamePathStr` (antd/es/form/hooks/useForm), verbatim, for antd's Radio.Group: the Radio
 * group needs only this helper, but importing it from the Form's hook module brings the whole form
 * store and scroll-into-view along into every list screen (antd Table's row selection imports
 * Radio). vite.config.ts points that one import here.
 */
function toArray(candidate) {
  if (candidate === undefined || candidate === false) return [];
  return Array.isArray(candidate) ? candidate : [candidate];
}

export function toNamePathStr(name) {
  return toArray(name).join('_');
}
