/** What every filter control gets from the filter bar: its id, its value and how to change it. */
export interface ControlProps {
  id: string;
  value: unknown;
  onChange(value: unknown): void;
}
