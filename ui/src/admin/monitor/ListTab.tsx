/**
 * One registry list of a monitoring screen's route, with every generic feature (ResourceView). Its
 * own lazy chunk: the board shows first, the list machinery loads when a list tab is opened.
 */
import type { RouteListing } from '@wanxiang/core';
import { useState } from 'react';
import { ResourceView } from '../../resources/ResourceView';
import '../../resources/resources.css';

export default function ListTab({ listing }: { listing: RouteListing }) {
  const [search, setSearch] = useState('');
  return (
    <ResourceView
      def={listing.def}
      fixedFilters={listing.filters}
      title={listing.title}
      location={{ search, setSearch }}
    />
  );
}
